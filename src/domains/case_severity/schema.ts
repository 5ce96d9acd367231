import { rankedShapes } from '../incident_priority/ranked.ts';

export const caseSeverityShapes = rankedShapes('CaseSeverity', {});
