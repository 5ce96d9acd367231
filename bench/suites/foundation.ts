// The foundation suite: an organization read, a project read by a random id among 100, a filtered
// and sorted project list over them, and login. Goals: get-organization and get-project reach at
// least 60% of baseline B's requests per second.
import type { Scenario, SentRequest } from '../lib/load.ts';
import { auth, listQuery, pick, projectName, seedProjects, type MusterSession } from '../lib/muster.ts';
import { goalCheck } from '../lib/report.ts';
import { kindLabel, resultOf, type Suite } from '../lib/suite.ts';

const PROJECTS = 100;
const GOAL_PERCENT = 60;

interface FoundationState {
  /** Ids of project-001 ... project-100, in that order. */
  projectIds: number[];
}

/**
 * In the order they are best measured: the cheapest read right after the baselines, the CPU-bound
 * login last.
 */
function scenarios(s: MusterSession, state: FoundationState): Scenario[] {
  const projects = `${s.api}/${s.organization}/projects`;
  const projectPath = new URL(projects).pathname;
  return [
    {
      name: 'get-organization',
      url: `${s.api}/organizations/${s.organizationId}`,
      headers: auth(s),
      check: (b: any) => (b?.id === s.organizationId && b?.slug === s.organization ? undefined : JSON.stringify(b).slice(0, 200)),
    },
    {
      name: 'get-project',
      url: `${projects}/${state.projectIds[0]}`,
      nextPath: () => `${projectPath}/${pick(state.projectIds)}`,
      headers: auth(s),
      check: (b: any, sent: SentRequest) => {
        const id = Number(new URL(sent.url).pathname.split('/').at(-1));
        const want = projectName(state.projectIds.indexOf(id) + 1);
        return b?.id === id && b?.name === want ? undefined : `expected project ${id} (${want}): ${JSON.stringify(b).slice(0, 200)}`;
      },
    },
    {
      name: 'list-projects',
      url: `${s.api}/${s.organization}/projects?${listQuery({
        page: 1,
        itemsPerPage: 20,
        filter: [{ model: 'Project', field: 'name', op: 'ilike', value: '%proj%' }],
        sortBy: ['name'],
        descending: [true],
      })}`,
      headers: auth(s),
      check: (b: any) => {
        const want = projectName(PROJECTS);
        if (b?.total !== PROJECTS || b?.items?.length !== 20 || b.items[0]?.name !== want) {
          return `expected total ${PROJECTS}, 20 items, first ${want}; got total ${b?.total}, ${b?.items?.length} items, first ${b?.items?.[0]?.name}`;
        }
      },
    },
    {
      name: 'login',
      method: 'POST',
      url: `${s.api}/${s.organization}/auth/login`,
      body: { email: s.email, password: s.password },
      check: (b: any) => (typeof b?.token === 'string' ? undefined : 'no token'),
    },
  ];
}

export const foundationSuite: Suite<FoundationState> = {
  name: 'foundation',
  title: 'organization, projects, login',
  async seed(session) {
    const projectIds = await seedProjects(session, PROJECTS);
    return { state: { projectIds }, summary: `${PROJECTS} projects, 4 at a time`, records: PROJECTS };
  },
  scenarios,
  goals(kind, results, baselines) {
    const b = baselines.find((x) => x.key === 'B')!;
    return ['get-organization', 'get-project'].map((name) => goalCheck(kindLabel(kind), resultOf(results, name), b, GOAL_PERCENT));
  },
  notes: ['login is slow by design: every request hashes the password with scrypt (N=16384, r=8).'],
};
