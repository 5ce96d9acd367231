-- hand-written
DROP TRIGGER IF EXISTS "service_list_changed" ON "service"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "plugin_event_list_changed" ON "plugin_event"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "cost_model_activity_list_changed" ON "cost_model_activity"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "cost_model_list_changed" ON "cost_model"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "event_list_changed" ON "event"
