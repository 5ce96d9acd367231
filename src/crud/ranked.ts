// Priorities and severities, of incidents and of cases: one kind of record (a name, a colour, a
// place in the ordering, `default` and `enabled` flags) with a few fields of its own. Their shapes
// and groups are built here once; each domain names only what is its own.
import { Type, type TProperties } from '@sinclair/typebox';
import type { GroupDef } from './group.ts';
import type { Fields } from '../list/definition.ts';
import { Color, Id, NameStr, Opt, Pagination, RefShape } from '../server/shapes.ts';
import { ProjectRead } from '../domains/project/schema.ts';

/** The four contract shapes of one ranked record, `title` being its model name ("IncidentPriority"). */
export function rankedShapes(title: string, own: TProperties) {
  // None of these has a default in the contract: the table's defaults apply to an omitted field.
  const fields = {
    name: NameStr(),
    description: Opt(Type.String()),
    color: Opt(Color()),
    default: Type.Optional(Type.Boolean()),
    enabled: Type.Optional(Type.Boolean()),
    view_order: Type.Optional(Type.Integer()),
    ...own,
  };
  const body = (suffix: string) =>
    Type.Object({ ...fields, project: Type.Optional(RefShape(ProjectRead)) }, { title: `${title}${suffix}`, additionalProperties: false });
  const read = Type.Object({ id: Id(), ...fields, project: ProjectRead }, { title: `${title}Read` });
  return { create: body('Create'), update: body('Update'), read, pagination: Pagination(read, `${title}Pagination`) };
}

const rankedFields: Fields = {
  id: 'int',
  name: 'text',
  description: 'text',
  color: 'text',
  default: 'bool',
  enabled: 'bool',
  view_order: 'int',
  created_at: 'timestamp',
};

type RankedDef = Pick<GroupDef, 'path' | 'idParam' | 'thing' | 'model' | 'tableName' | 'table' | 'shapes'> & { fields?: Fields };

/**
 * A ranked record group: Admin and above write (SensitiveProjectAction), one default per project,
 * colours stored as hex, names unique per project, and no delete (the contract has none: incidents
 * and cases keep pointing at them).
 */
export function rankedGroup(def: RankedDef): GroupDef {
  return {
    ...def,
    tags: [def.path],
    fields: { ...rankedFields, ...def.fields },
    operations: ['list', 'create', 'get', 'update'],
    writePermission: 'SensitiveProjectAction',
    oneDefault: true,
    colors: ['color'],
    unique: { [`${def.tableName}_project_name_key`]: 'name' },
  };
}
