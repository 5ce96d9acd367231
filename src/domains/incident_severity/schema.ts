import { rankedShapes } from '../../crud/ranked.ts';

export const incidentSeverityShapes = rankedShapes('IncidentSeverity', {});
