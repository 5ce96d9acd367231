// The shapes of the plugin catalogue and of plugin instances, as the contract gives them. An
// instance's `configuration` is shown with its secrets masked; `configuration_schema` is the
// plugin's JSON Schema (null when it takes none or is not loaded in this process).
import { Type, type Static } from '@sinclair/typebox';
import { Id, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { ProjectRead, ProjectRef } from '../project/schema.ts';

export const PluginRead = Type.Object(
  {
    id: Id(),
    title: Type.String(),
    slug: Type.String(),
    author: Type.String(),
    author_url: Type.String(),
    type: Type.String(),
    multiple: Type.Boolean(),
    description: Opt(Type.String()),
    configuration_schema: Type.Optional(Type.Unknown()),
  },
  { title: 'PluginRead' },
);
export type PluginReadT = Static<typeof PluginRead>;

export const PluginPagination = Pagination(PluginRead, 'PluginPagination');

/** Something a plugin observes people doing, which cost models price (beyond 0.1.0). */
export const PluginEventRead = Type.Object(
  { id: Id(), name: Type.String(), slug: Type.String(), description: Opt(Type.String()), plugin: PluginRead },
  { title: 'PluginEventRead' },
);
export type PluginEventReadT = Static<typeof PluginEventRead>;

export const PluginEventPagination = Pagination(PluginEventRead, 'PluginEventPagination');

const Configuration = Type.Object({}, { additionalProperties: true });

export const PluginInstanceRead = Type.Object(
  {
    id: Id(),
    enabled: Type.Boolean(),
    configuration: Opt(Configuration),
    configuration_schema: Type.Optional(Type.Unknown()),
    plugin: PluginRead,
    project: Opt(ProjectRead),
  },
  { title: 'PluginInstanceRead' },
);
export type PluginInstanceReadT = Static<typeof PluginInstanceRead>;

export const PluginInstancePagination = Pagination(PluginInstanceRead, 'PluginInstancePagination');

/** The plugin an instance is made of: by id, else by slug. */
const PluginRef = RefShape(PluginRead);

export const PluginInstanceCreate = Type.Object(
  {
    plugin: PluginRef,
    project: ProjectRef,
    enabled: Type.Optional(Type.Boolean()),
    configuration: Opt(Configuration),
  },
  { title: 'PluginInstanceCreate', additionalProperties: false },
);
export type PluginInstanceCreateT = Static<typeof PluginInstanceCreate>;

// No defaults: an omitted field keeps its stored value.
export const PluginInstanceUpdate = Type.Object(
  {
    id: Type.Optional(Id()),
    enabled: Type.Optional(Type.Boolean()),
    configuration: Opt(Configuration),
  },
  { title: 'PluginInstanceUpdate', additionalProperties: false },
);
export type PluginInstanceUpdateT = Static<typeof PluginInstanceUpdate>;
