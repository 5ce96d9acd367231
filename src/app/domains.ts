// Every domain's routes, in the order they are registered under /api/v1.
import type { App } from '../server/routing.ts';
import organizationRoutes from '../domains/organization/routes.ts';
import authRoutes from '../domains/auth/routes.ts';
import registrationRoutes from '../domains/auth/registration-routes.ts';
import apiTokenRoutes from '../domains/auth/api-token-routes.ts';
import ssoRoutes from '../domains/auth/sso-routes.ts';
import projectRoutes from '../domains/project/routes.ts';
import incidentPriorityRoutes from '../domains/incident_priority/routes.ts';
import incidentSeverityRoutes from '../domains/incident_severity/routes.ts';
import incidentTypeRoutes from '../domains/incident_type/routes.ts';
import incidentCostTypeRoutes from '../domains/incident_cost_type/routes.ts';
import casePriorityRoutes from '../domains/case_priority/routes.ts';
import caseSeverityRoutes from '../domains/case_severity/routes.ts';
import caseTypeRoutes from '../domains/case_type/routes.ts';
import costModelRoutes from '../domains/cost_model/routes.ts';
import tagTypeRoutes from '../domains/tag_type/routes.ts';
import tagRoutes from '../domains/tag/routes.ts';
import sourceRoutes from '../domains/source/routes.ts';
import queryRoutes from '../domains/query/routes.ts';
import alertRoutes from '../domains/alert/routes.ts';
import definitionRoutes from '../domains/definition/routes.ts';
import termRoutes from '../domains/term/routes.ts';
import entityTypeRoutes from '../domains/entity_type/routes.ts';
import entityRoutes from '../domains/entity/routes.ts';
import entitySignalRoutes from '../domains/signal/entity-routes.ts';
import documentRoutes from '../domains/document/routes.ts';
import recordDocumentRoutes from '../domains/record_document/routes.ts';
import individualRoutes from '../domains/individual/routes.ts';
import notificationRoutes from '../domains/notification/routes.ts';
import searchFilterRoutes from '../domains/search_filter/routes.ts';
import searchRoutes from '../domains/search/routes.ts';
import serviceRoutes from '../domains/service/routes.ts';
import teamRoutes from '../domains/team/routes.ts';
import incidentRoutes from '../domains/incident/routes.ts';
import incidentRoleRoutes from '../domains/incident_role/routes.ts';
import incidentCostRoutes from '../domains/incident_cost/routes.ts';
import feedbackRoutes from '../domains/feedback/routes.ts';
import taskRoutes from '../domains/task/routes.ts';
import incidentForecastRoutes from '../domains/incident/forecast-routes.ts';
import incidentTimelineRoutes from '../domains/incident/timeline-routes.ts';
import signalRoutes from '../domains/signal/routes.ts';
import caseRoutes from '../domains/case/routes.ts';
import fileRoutes from '../domains/storage/routes.ts';
import groupRoutes from '../domains/group/routes.ts';
import tagRecommendationRoutes from '../domains/tag_recommendation/routes.ts';
import pluginRoutes from '../domains/plugin/routes.ts';
import workflowRoutes from '../domains/workflow/routes.ts';
import auditRoutes from '../domains/audit/routes.ts';

export const DOMAIN_ROUTES: ((app: App) => Promise<void>)[] = [
  organizationRoutes,
  authRoutes,
  registrationRoutes,
  apiTokenRoutes,
  ssoRoutes,
  projectRoutes,
  incidentPriorityRoutes,
  incidentSeverityRoutes,
  incidentTypeRoutes,
  incidentCostTypeRoutes,
  casePriorityRoutes,
  caseSeverityRoutes,
  caseTypeRoutes,
  costModelRoutes,
  tagTypeRoutes,
  tagRoutes,
  sourceRoutes,
  queryRoutes,
  alertRoutes,
  definitionRoutes,
  termRoutes,
  entityTypeRoutes,
  entityRoutes,
  entitySignalRoutes,
  documentRoutes,
  recordDocumentRoutes,
  individualRoutes,
  notificationRoutes,
  searchFilterRoutes,
  searchRoutes,
  serviceRoutes,
  teamRoutes,
  incidentRoutes,
  incidentRoleRoutes,
  incidentCostRoutes,
  feedbackRoutes,
  taskRoutes,
  incidentForecastRoutes,
  incidentTimelineRoutes,
  caseRoutes,
  fileRoutes,
  groupRoutes,
  signalRoutes,
  tagRecommendationRoutes,
  pluginRoutes,
  workflowRoutes,
  auditRoutes,
];
