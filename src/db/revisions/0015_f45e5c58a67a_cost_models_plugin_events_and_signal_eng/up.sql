CREATE TABLE "cost_model" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "cost_model_activity" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"cost_model_id" integer NOT NULL,
	"plugin_event_id" integer NOT NULL,
	"response_time_seconds" integer DEFAULT 300 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plugin_event" (
	"id" serial PRIMARY KEY NOT NULL,
	"plugin_id" integer NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	CONSTRAINT "plugin_event_slug_key" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "signal_engagement" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"require_mfa" boolean DEFAULT false NOT NULL,
	"entity_type_id" integer,
	"message" text,
	"creator_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'B')) STORED
);
--> statement-breakpoint
ALTER TABLE "case_type" ADD COLUMN "cost_model_id" integer;
--> statement-breakpoint
ALTER TABLE "incident_type" ADD COLUMN "cost_model_id" integer;
--> statement-breakpoint
ALTER TABLE "cost_model" ADD CONSTRAINT "cost_model_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "cost_model" ADD CONSTRAINT "cost_model_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "cost_model_activity" ADD CONSTRAINT "cost_model_activity_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "cost_model_activity" ADD CONSTRAINT "cost_model_activity_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "cost_model_activity" ADD CONSTRAINT "cost_model_activity_cost_model_id_cost_model_id_fk" FOREIGN KEY ("cost_model_id") REFERENCES "public"."cost_model"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "cost_model_activity" ADD CONSTRAINT "cost_model_activity_plugin_event_id_plugin_event_id_fk" FOREIGN KEY ("plugin_event_id") REFERENCES "public"."plugin_event"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "plugin_event" ADD CONSTRAINT "plugin_event_plugin_id_plugin_id_fk" FOREIGN KEY ("plugin_id") REFERENCES "public"."plugin"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_engagement" ADD CONSTRAINT "signal_engagement_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_engagement" ADD CONSTRAINT "signal_engagement_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_engagement" ADD CONSTRAINT "signal_engagement_entity_type_id_entity_type_id_fk" FOREIGN KEY ("entity_type_id") REFERENCES "public"."entity_type"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_engagement" ADD CONSTRAINT "signal_engagement_creator_id_app_user_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "cost_model_project_name_key" ON "cost_model" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "cost_model_search_idx" ON "cost_model" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "cost_model_activity_event_key" ON "cost_model_activity" USING btree ("cost_model_id","plugin_event_id");
--> statement-breakpoint
CREATE INDEX "cost_model_activity_event_idx" ON "cost_model_activity" USING btree ("plugin_event_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "signal_engagement_project_name_key" ON "signal_engagement" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "signal_engagement_search_idx" ON "signal_engagement" USING gin ("search_vector");
--> statement-breakpoint
ALTER TABLE "case_type" ADD CONSTRAINT "case_type_cost_model_id_cost_model_id_fk" FOREIGN KEY ("cost_model_id") REFERENCES "public"."cost_model"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_type" ADD CONSTRAINT "incident_type_cost_model_id_cost_model_id_fk" FOREIGN KEY ("cost_model_id") REFERENCES "public"."cost_model"("id") ON DELETE set null ON UPDATE no action;
