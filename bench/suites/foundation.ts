// The foundation suite: an organization read, a filtered and sorted project list over 100 projects,
// and login. Goal: get-organization reaches at least 50% of baseline B's requests per second.
import type { Scenario } from '../lib/load.ts';
import { auth, listQuery, projectName, seedProjects, type MusterSession } from '../lib/muster.ts';
import { goalCheck } from '../lib/report.ts';
import { kindLabel, resultOf, type Suite } from '../lib/suite.ts';

const PROJECTS = 100;
const GOAL_PERCENT = 50;

/**
 * In the order they are best measured: the cheapest read right after the baselines, the CPU-bound
 * login last.
 */
function scenarios(s: MusterSession): Scenario[] {
  return [
    {
      name: 'get-organization',
      url: `${s.api}/organizations/${s.organizationId}`,
      headers: auth(s),
      check: (b: any) => (b?.id === s.organizationId && b?.slug === s.organization ? undefined : JSON.stringify(b).slice(0, 200)),
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

export const foundationSuite: Suite<void> = {
  name: 'foundation',
  title: 'organization, projects, login',
  async seed(session) {
    await seedProjects(session, PROJECTS);
    return { state: undefined, summary: `${PROJECTS} projects, 4 at a time`, records: PROJECTS };
  },
  scenarios,
  goals(kind, results, baselines) {
    const b = baselines.find((x) => x.key === 'B')!;
    return [goalCheck(kindLabel(kind), resultOf(results, 'get-organization'), b, GOAL_PERCENT)];
  },
  notes: ['login is slow by design: every request hashes the password with scrypt (N=16384, r=8).'],
};
