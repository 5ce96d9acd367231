// The shapes of cost models, as current Dispatch's CostModel* models (beyond 0.1.0). Activities name
// their plugin event by id (or slug); the rest of a read object sent back is ignored.
import { Type } from '@sinclair/typebox';
import { DateTime, Id, MAX_ID, NameStr, Nullable, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { PluginEventRead } from '../plugin/schema.ts';
import { ProjectRead } from '../project/schema.ts';

const PluginEventRef = RefShape(Type.Object({ id: Id(), slug: Type.String() }, { title: 'PluginEventRead' }));

const CostModelActivityWrite = Type.Object(
  {
    id: Opt(Id()),
    plugin_event: PluginEventRef,
    /** Seconds of work one occurrence stands for; null or absent: 300, as Dispatch. */
    response_time_seconds: Opt(Type.Integer({ minimum: 0, maximum: MAX_ID })),
    enabled: Opt(Type.Boolean()),
  },
  { title: 'CostModelActivityUpdate', additionalProperties: false },
);

export const CostModelActivityRead = Type.Object(
  { id: Id(), plugin_event: PluginEventRead, response_time_seconds: Type.Integer(), enabled: Type.Boolean() },
  { title: 'CostModelActivityRead' },
);

const fields = {
  name: NameStr(),
  description: Opt(Type.String()),
  enabled: Opt(Type.Boolean()),
  // In Dispatch's bodies; the server sets them and ignores what is sent.
  created_at: Opt(DateTime()),
  updated_at: Opt(DateTime()),
};

/** Absent on update: the activities are kept; a list replaces them (matched by plugin event). */
const activities = Type.Optional(Type.Array(CostModelActivityWrite));

export const CostModelCreate = Type.Object(
  { ...fields, project: RefShape(ProjectRead), activities },
  { title: 'CostModelCreate', additionalProperties: false },
);
export const CostModelUpdate = Type.Object(
  { id: Type.Optional(Id()), ...fields, project: Type.Optional(Nullable(RefShape(ProjectRead))), activities },
  { title: 'CostModelUpdate', additionalProperties: false },
);
export const CostModelRead = Type.Object(
  {
    id: Id(),
    name: NameStr(),
    description: Opt(Type.String()),
    enabled: Type.Boolean(),
    created_at: DateTime(),
    updated_at: DateTime(),
    project: ProjectRead,
    activities: Type.Array(CostModelActivityRead),
  },
  { title: 'CostModelRead' },
);
export const CostModelPagination = Pagination(CostModelRead, 'CostModelPagination');
