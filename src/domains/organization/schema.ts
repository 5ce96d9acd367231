import { Type, type Static } from '@sinclair/typebox';
import { Color, Id, NameStr, Opt, Pagination } from '../../server/shapes.ts';

const BannerText = NameStr({ title: 'Banner Text' });

const editable = {
  description: Opt(Type.String()),
  default: Type.Optional(Type.Boolean({ default: false, nullable: true })),
  banner_enabled: Type.Optional(Type.Boolean({ default: false, nullable: true })),
  banner_text: Opt(BannerText),
  banner_color: Opt(Color()),
};

export const OrganizationCreate = Type.Object(
  { id: Type.Optional(Id()), name: NameStr(), ...editable },
  { title: 'OrganizationCreate', additionalProperties: false },
);
export type OrganizationCreateT = Static<typeof OrganizationCreate>;

// Dispatch does not let an update change the name (and so the slug in every URL). No `default`
// keywords on an update: Ajv would fill them in for omitted fields and overwrite the stored values,
// where Dispatch leaves omitted fields unchanged.
export const OrganizationUpdate = Type.Object(
  {
    id: Type.Optional(Id()),
    ...editable,
    default: Type.Optional(Type.Boolean({ nullable: true })),
    banner_enabled: Type.Optional(Type.Boolean({ nullable: true })),
  },
  { title: 'OrganizationUpdate', additionalProperties: false },
);
export type OrganizationUpdateT = Static<typeof OrganizationUpdate>;

export const OrganizationRead = Type.Object(
  {
    id: Id(),
    name: NameStr(),
    slug: Type.String({ minLength: 3, pattern: '^[\\w]+(?:_[\\w]+)*$' }),
    description: Opt(Type.String()),
    default: Type.Optional(Type.Boolean({ default: false, nullable: true })),
    banner_enabled: Type.Optional(Type.Boolean({ default: false, nullable: true })),
    banner_text: Opt(Type.String()),
    banner_color: Opt(Type.String({ format: 'color' })),
  },
  { title: 'OrganizationRead' },
);

export const OrganizationPagination = Pagination(OrganizationRead, 'OrganizationPagination');
