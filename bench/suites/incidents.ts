// The incidents suite: 100,000 incidents in bulk SQL, the web UI's requests for them, and reads
// while signals are ingested at 1,000/s beside them (see lifecycle.ts for the scenarios and goals).
import { lifecycleSuite } from './lifecycle.ts';

export const incidentsSuite = lifecycleSuite({ kind: 'incident', listStatus: 'Active', underIngestion: true });
