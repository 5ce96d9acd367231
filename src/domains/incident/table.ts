import { linkTable } from '../project/scoped.ts';
import { incident } from '../lifecycle/table.ts';
import { tag } from '../tag/table.ts';
import { term } from '../term/table.ts';

export const incidentTag = linkTable('incident_tag', ['incident_id', incident], ['tag_id', tag]);
export const incidentTerm = linkTable('incident_term', ['incident_id', incident], ['term_id', term]);
export const incidentDuplicate = linkTable('incident_duplicate', ['incident_id', incident], ['duplicate_id', incident]);
