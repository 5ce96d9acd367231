// GET /{organization}/incidents/metric/forecast: the incident forecast (forecast.ts) of the incidents
// the caller may see. The list query parameters are accepted as the contract says; only `filter` is used.
import { Type } from '@sinclair/typebox';
import type { App } from '../../server/routing.ts';
import { ListQuery, OrgParams } from '../../server/shapes.ts';
import { incidentForecast } from './forecast.ts';
import { incidentList } from './service.ts';
import { visibleIncidents } from './visibility.ts';

/** `{"categories": ["2024-03", ...], "series": [{"name": "Predicted", "data": [...]}, {"name": "Actual", "data": [...]}]}` */
const ForecastRead = Type.Object(
  { categories: Type.Array(Type.String()), series: Type.Array(Type.Object({ name: Type.String(), data: Type.Array(Type.Integer()) })) },
  { title: 'IncidentForecast' },
);

export default async function incidentForecastRoutes(app: App) {
  app.get(
    '/:organization/incidents/metric/forecast',
    { schema: { tags: ['incidents'], params: OrgParams(), querystring: ListQuery, response: { 200: ForecastRead } } },
    (req) => incidentForecast(req.ctx.db, req.ctx, incidentList, req.query.filter, visibleIncidents(req.ctx)),
  );
}
