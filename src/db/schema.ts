// Every table of Muster, gathered for the query builder and for `database revision --autogenerate`.
export * from '../domains/organization/table.ts';
export * from '../domains/project/table.ts';
export * from '../domains/auth/table.ts';
