import { Type } from '@sinclair/typebox';
import { DateTime, Defaulted, Id, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { StringEnum } from '../search_filter/schema.ts';
import { IncidentReadMinimal, ParticipantRead } from '../incident/schema.ts';
import { ProjectRead } from '../project/schema.ts';

export const FEEDBACK_RATINGS = [
  'Very satisfied',
  'Somewhat satisfied',
  'Neither satisfied nor dissatisfied',
  'Somewhat dissatisfied',
  'Very dissatisfied',
] as const;
const Rating = StringEnum(FEEDBACK_RATINGS, 'FeedbackRating');
const rating = Type.Unsafe<(typeof FEEDBACK_RATINGS)[number]>({ ...Rating, default: 'Very satisfied' });

const fields = {
  feedback: Opt(Type.String()),
  rating: Defaulted(rating),
  // In the contract's bodies; the server sets it and ignores what is sent.
  created_at: Type.Optional(DateTime()),
  // By id (or name); the contract leaves it optional, Muster requires it on create (a feedback is about an incident).
  incident: Type.Optional(RefShape(IncidentReadMinimal)),
  // By id: one of the incident's participants.
  participant: Opt(RefShape(ParticipantRead)),
};

export const FeedbackCreate = Type.Object(fields, { title: 'FeedbackCreate', additionalProperties: false });
export const FeedbackUpdate = Type.Object({ id: Type.Optional(Id()), ...fields }, { title: 'FeedbackUpdate', additionalProperties: false });
export const FeedbackRead = Type.Object(
  {
    id: Id(),
    feedback: Opt(Type.String()),
    rating,
    created_at: DateTime(),
    incident: Opt(IncidentReadMinimal),
    participant: Opt(ParticipantRead),
    project: ProjectRead,
  },
  { title: 'FeedbackRead' },
);
export const FeedbackPagination = Pagination(FeedbackRead, 'FeedbackPagination');
