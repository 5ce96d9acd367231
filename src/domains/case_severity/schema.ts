import { rankedShapes } from '../../crud/ranked.ts';

export const caseSeverityShapes = rankedShapes('CaseSeverity', {});
