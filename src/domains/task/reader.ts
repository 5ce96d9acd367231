// Tasks read by id (TaskRead): the incident minimal, the people in full, the project.
import { groupReader, type ReadDef } from '../../crud/reader.ts';
import { incidentMinimalReader, incidentTarget } from '../incident/reader.ts';
import { participantReader, participantTarget } from '../participant/reader.ts';
import { TaskRead } from './schema.ts';
import { task, taskAssignee } from './table.ts';

const taskDef: ReadDef = {
  table: task,
  refs: {
    incident: { column: 'incident_id', target: incidentTarget, read: incidentMinimalReader },
    creator: { column: 'creator_id', target: participantTarget, read: participantReader },
    owner: { column: 'owner_id', target: participantTarget, read: participantReader },
  },
  links: { assignees: { table: taskAssignee, ownerColumn: 'task_id', otherColumn: 'participant_id', target: participantTarget, read: participantReader } },
};

/** TaskRead by task id. */
export const taskReader = () => groupReader(taskDef, TaskRead);
