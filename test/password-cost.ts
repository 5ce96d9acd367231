// The cost of password hashes in tests (MUSTER_PASSWORD_COST): the least the setting allows, 1 MiB and about 3 ms
// a hash instead of the default's 16 MiB and 50 ms. The embedded projects alone hash about 550 times;
// what the cost itself does is tested in src/domains/auth/auth.test.ts.
export const TEST_PASSWORD_COST = 10;
