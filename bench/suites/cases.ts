// The cases suite: 100,000 cases in bulk SQL and the web UI's requests for them (see lifecycle.ts
// for the scenarios and goals).
import { lifecycleSuite } from './lifecycle.ts';

export const casesSuite = lifecycleSuite({ kind: 'case', listStatus: 'Triage', underIngestion: false });
