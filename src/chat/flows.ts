// Every flow Muster runs from Slack, by name: the slash commands (BEHAVIOR §12, named in the
// plugin's configuration) and the buttons on the messages Muster posts. A command of COMMANDS that
// has no flow here is answered "not available".
import type { Command } from '../plugins/builtin/slack/config.ts';
import { createCaseFlow, escalateCaseFlow, joinCaseFlow, resolveCaseFlow, updateCaseFlow } from './case-flows.ts';
import type { Flow } from './flow.ts';
import {
  addTimelineEvent,
  assignRole,
  createTaskFlow,
  engageOncallFlow,
  reportExecutive,
  reportIncident,
  reportTactical,
  runWorkflowFlow,
  updateIncidentFlow,
  updateParticipant,
} from './incident-flows.ts';
import { listIncidentsFlow, listMyTasksFlow, listParticipantsFlow, listSignalsFlow, listTasksFlow, listWorkflowsFlow } from './lists.ts';

/** The commands Muster runs; `notifications-group`, `engage-user` and `summary` are not among them. */
export const COMMAND_FLOWS: Partial<Record<Command, Flow>> = {
  'report-incident': reportIncident,
  'list-incidents': listIncidentsFlow,
  'list-participants': listParticipantsFlow,
  'list-tasks': listTasksFlow,
  'list-my-tasks': listMyTasksFlow,
  'list-signals': listSignalsFlow,
  'assign-role': assignRole,
  'update-incident': updateIncidentFlow,
  'update-participant': updateParticipant,
  'add-timeline-event': addTimelineEvent,
  'report-tactical': reportTactical,
  'report-executive': reportExecutive,
  'engage-oncall': engageOncallFlow,
  'create-task': createTaskFlow,
  'create-case': createCaseFlow,
  'update-case': updateCaseFlow,
  'escalate-case': escalateCaseFlow,
  'list-workflows': listWorkflowsFlow,
  'run-workflow': runWorkflowFlow,
};

/**
 * The buttons on messages Muster posts (the incident's summary, a case's message): action id to
 * the flow it runs and the kind of record its `value` (the record's id) names.
 */
export const BUTTONS: Record<string, { flow: string; kind: 'incident' | 'case'; label: string }> = {
  'incident-update': { flow: 'update-incident', kind: 'incident', label: 'Update' },
  'case-edit': { flow: 'update-case', kind: 'case', label: 'Edit' },
  'case-escalate': { flow: 'escalate-case', kind: 'case', label: 'Escalate' },
  'case-resolve': { flow: 'resolve-case', kind: 'case', label: 'Resolve' },
  'case-join': { flow: 'join-case', kind: 'case', label: 'Join' },
};

const BUTTON_FLOWS: Record<string, Flow> = { 'resolve-case': resolveCaseFlow, 'join-case': joinCaseFlow };

export function flowNamed(name: string): Flow | undefined {
  return (
    (Object.hasOwn(COMMAND_FLOWS, name) ? COMMAND_FLOWS[name as Command] : undefined) ?? (Object.hasOwn(BUTTON_FLOWS, name) ? BUTTON_FLOWS[name] : undefined)
  );
}
