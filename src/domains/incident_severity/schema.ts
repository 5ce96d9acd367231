import { rankedShapes } from '../incident_priority/ranked.ts';

export const incidentSeverityShapes = rankedShapes('IncidentSeverity', {});
