-- hand-written
-- The change log of revision 0022 (list/count-cache.ts) extended to the tables a case dashboard
-- reads besides those of revision 0035: what a case's costs are computed from
-- (domains/case/costs.ts: its timeline, whose activities the case type's cost model prices, the
-- cost models, their activities and the plugin events they name) and the on-call service a case
-- type names. A kept case dashboard (list/kept-answers.ts) is read again after a change to any of them.
CREATE TRIGGER "event_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "event" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "cost_model_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "cost_model" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "cost_model_activity_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "cost_model_activity" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "plugin_event_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "plugin_event" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "service_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "service" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
