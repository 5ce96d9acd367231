CREATE TABLE "alert" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text,
	"description" text,
	"external_link" text,
	"originator" text,
	"source_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A')) STORED
);
--> statement-breakpoint
CREATE TABLE "case_priority" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"color" text,
	"default" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"page_assignee" boolean DEFAULT false NOT NULL,
	"view_order" integer DEFAULT 9999 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "case_severity" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"color" text,
	"default" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"view_order" integer DEFAULT 9999 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "case_type" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"visibility" text,
	"conversation_target" text,
	"default" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"exclude_from_metrics" boolean DEFAULT false NOT NULL,
	"plugin_metadata" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"case_template_document_id" integer,
	"incident_type_id" integer,
	"oncall_service_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A')) STORED
);
--> statement-breakpoint
CREATE TABLE "definition" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"text" text NOT NULL,
	"source" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("text"::text, '')), 'A')) STORED
);
--> statement-breakpoint
CREATE TABLE "definition_term" (
	"definition_id" integer NOT NULL,
	"term_id" integer NOT NULL,
	CONSTRAINT "definition_term_definition_id_term_id_pk" PRIMARY KEY("definition_id","term_id")
);
--> statement-breakpoint
CREATE TABLE "document" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"resource_id" text,
	"resource_type" text,
	"weblink" text,
	"evergreen" boolean DEFAULT false NOT NULL,
	"evergreen_owner" text,
	"evergreen_reminder_interval" integer DEFAULT 90 NOT NULL,
	"evergreen_last_reminder_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A')) STORED
);
--> statement-breakpoint
CREATE TABLE "document_filter" (
	"document_id" integer NOT NULL,
	"search_filter_id" integer NOT NULL,
	CONSTRAINT "document_filter_document_id_search_filter_id_pk" PRIMARY KEY("document_id","search_filter_id")
);
--> statement-breakpoint
CREATE TABLE "entity" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text,
	"description" text,
	"value" text,
	"source" text,
	"entity_type_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'B') || setweight(to_tsvector('simple'::regconfig, coalesce("value"::text, '')), 'C')) STORED
);
--> statement-breakpoint
CREATE TABLE "entity_type" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"jpath" text,
	"regular_expression" text,
	"global_find" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "incident_cost_type" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"category" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"default" boolean DEFAULT false NOT NULL,
	"editable" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "incident_priority" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"color" text,
	"default" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"page_commander" boolean DEFAULT false NOT NULL,
	"tactical_report_reminder" integer DEFAULT 24 NOT NULL,
	"executive_report_reminder" integer DEFAULT 24 NOT NULL,
	"view_order" integer DEFAULT 9999 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "incident_severity" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"color" text,
	"default" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"view_order" integer DEFAULT 9999 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "incident_type" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"visibility" text,
	"default" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"exclude_from_metrics" boolean DEFAULT false NOT NULL,
	"plugin_metadata" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"incident_template_document_id" integer,
	"executive_template_document_id" integer,
	"review_template_document_id" integer,
	"tracking_template_document_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A')) STORED
);
--> statement-breakpoint
CREATE TABLE "individual_contact" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"title" text,
	"company" text,
	"notes" text,
	"owner" text,
	"weblink" text,
	"contact_type" text,
	"external_id" text,
	"mobile_phone" text,
	"office_phone" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_external" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("email"::text, '')), 'B') || setweight(to_tsvector('simple'::regconfig, coalesce("title"::text, '')), 'C') || setweight(to_tsvector('simple'::regconfig, coalesce("company"::text, '')), 'D') || setweight(to_tsvector('simple'::regconfig, coalesce("notes"::text, '')), 'D')) STORED
);
--> statement-breakpoint
CREATE TABLE "individual_contact_filter" (
	"individual_contact_id" integer NOT NULL,
	"search_filter_id" integer NOT NULL,
	CONSTRAINT "individual_contact_filter_individual_contact_id_search_filter_id_pk" PRIMARY KEY("individual_contact_id","search_filter_id")
);
--> statement-breakpoint
CREATE TABLE "notification" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"type" text NOT NULL,
	"target" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"evergreen" boolean DEFAULT false NOT NULL,
	"evergreen_owner" text,
	"evergreen_reminder_interval" integer DEFAULT 90 NOT NULL,
	"evergreen_last_reminder_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "notification_filter" (
	"notification_id" integer NOT NULL,
	"search_filter_id" integer NOT NULL,
	CONSTRAINT "notification_filter_notification_id_search_filter_id_pk" PRIMARY KEY("notification_id","search_filter_id")
);
--> statement-breakpoint
CREATE TABLE "query" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"language" text,
	"text" text,
	"source_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A')) STORED
);
--> statement-breakpoint
CREATE TABLE "query_tag" (
	"query_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "query_tag_query_id_tag_id_pk" PRIMARY KEY("query_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "search_filter" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"expression" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"subject" text DEFAULT 'incident' NOT NULL,
	"creator_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "service" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text,
	"description" text,
	"external_id" text,
	"type" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"evergreen" boolean DEFAULT false NOT NULL,
	"evergreen_owner" text,
	"evergreen_reminder_interval" integer DEFAULT 90 NOT NULL,
	"evergreen_last_reminder_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A')) STORED
);
--> statement-breakpoint
CREATE TABLE "service_filter" (
	"service_id" integer NOT NULL,
	"search_filter_id" integer NOT NULL,
	CONSTRAINT "service_filter_service_id_search_filter_id_pk" PRIMARY KEY("service_id","search_filter_id")
);
--> statement-breakpoint
CREATE TABLE "source" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"documentation" text,
	"external_id" text,
	"source_schema" text,
	"aggregated" boolean DEFAULT false NOT NULL,
	"cost" double precision,
	"delay" integer,
	"retention" integer,
	"size" integer,
	"sampling_rate" integer,
	"links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"data_last_loaded_at" timestamp with time zone,
	"owner_id" integer,
	"source_data_format_id" integer,
	"source_environment_id" integer,
	"source_status_id" integer,
	"source_transport_id" integer,
	"source_type_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A')) STORED
);
--> statement-breakpoint
CREATE TABLE "source_data_format" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A')) STORED
);
--> statement-breakpoint
CREATE TABLE "source_environment" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A')) STORED
);
--> statement-breakpoint
CREATE TABLE "source_status" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A')) STORED
);
--> statement-breakpoint
CREATE TABLE "source_tag" (
	"source_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "source_tag_source_id_tag_id_pk" PRIMARY KEY("source_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "source_transport" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A')) STORED
);
--> statement-breakpoint
CREATE TABLE "source_type" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A')) STORED
);
--> statement-breakpoint
CREATE TABLE "tag" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text,
	"description" text,
	"uri" text,
	"source" text,
	"external_id" text,
	"discoverable" boolean DEFAULT true NOT NULL,
	"tag_type_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'B') || setweight(to_tsvector('simple'::regconfig, coalesce("external_id"::text, '')), 'C')) STORED
);
--> statement-breakpoint
CREATE TABLE "tag_type" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"exclusive" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A')) STORED
);
--> statement-breakpoint
CREATE TABLE "team_contact" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"company" text,
	"notes" text,
	"owner" text,
	"contact_type" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_external" boolean DEFAULT false NOT NULL,
	"evergreen" boolean DEFAULT false NOT NULL,
	"evergreen_owner" text,
	"evergreen_reminder_interval" integer DEFAULT 90 NOT NULL,
	"evergreen_last_reminder_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("notes"::text, '')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "team_contact_filter" (
	"team_contact_id" integer NOT NULL,
	"search_filter_id" integer NOT NULL,
	CONSTRAINT "team_contact_filter_team_contact_id_search_filter_id_pk" PRIMARY KEY("team_contact_id","search_filter_id")
);
--> statement-breakpoint
CREATE TABLE "term" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"text" text,
	"discoverable" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("text"::text, '')), 'A')) STORED
);
--> statement-breakpoint
ALTER TABLE "alert" ADD CONSTRAINT "alert_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "alert" ADD CONSTRAINT "alert_source_id_source_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."source"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_priority" ADD CONSTRAINT "case_priority_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_priority" ADD CONSTRAINT "case_priority_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_severity" ADD CONSTRAINT "case_severity_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_severity" ADD CONSTRAINT "case_severity_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_type" ADD CONSTRAINT "case_type_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_type" ADD CONSTRAINT "case_type_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_type" ADD CONSTRAINT "case_type_case_template_document_id_document_id_fk" FOREIGN KEY ("case_template_document_id") REFERENCES "public"."document"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_type" ADD CONSTRAINT "case_type_incident_type_id_incident_type_id_fk" FOREIGN KEY ("incident_type_id") REFERENCES "public"."incident_type"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_type" ADD CONSTRAINT "case_type_oncall_service_id_service_id_fk" FOREIGN KEY ("oncall_service_id") REFERENCES "public"."service"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "definition" ADD CONSTRAINT "definition_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "definition" ADD CONSTRAINT "definition_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "definition_term" ADD CONSTRAINT "definition_term_definition_id_definition_id_fk" FOREIGN KEY ("definition_id") REFERENCES "public"."definition"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "definition_term" ADD CONSTRAINT "definition_term_term_id_term_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."term"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "document" ADD CONSTRAINT "document_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "document" ADD CONSTRAINT "document_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "document_filter" ADD CONSTRAINT "document_filter_document_id_document_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."document"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "document_filter" ADD CONSTRAINT "document_filter_search_filter_id_search_filter_id_fk" FOREIGN KEY ("search_filter_id") REFERENCES "public"."search_filter"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "entity" ADD CONSTRAINT "entity_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "entity" ADD CONSTRAINT "entity_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "entity" ADD CONSTRAINT "entity_entity_type_id_entity_type_id_fk" FOREIGN KEY ("entity_type_id") REFERENCES "public"."entity_type"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "entity_type" ADD CONSTRAINT "entity_type_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "entity_type" ADD CONSTRAINT "entity_type_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_cost_type" ADD CONSTRAINT "incident_cost_type_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_cost_type" ADD CONSTRAINT "incident_cost_type_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_priority" ADD CONSTRAINT "incident_priority_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_priority" ADD CONSTRAINT "incident_priority_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_severity" ADD CONSTRAINT "incident_severity_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_severity" ADD CONSTRAINT "incident_severity_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_type" ADD CONSTRAINT "incident_type_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_type" ADD CONSTRAINT "incident_type_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_type" ADD CONSTRAINT "incident_type_incident_template_document_id_document_id_fk" FOREIGN KEY ("incident_template_document_id") REFERENCES "public"."document"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_type" ADD CONSTRAINT "incident_type_executive_template_document_id_document_id_fk" FOREIGN KEY ("executive_template_document_id") REFERENCES "public"."document"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_type" ADD CONSTRAINT "incident_type_review_template_document_id_document_id_fk" FOREIGN KEY ("review_template_document_id") REFERENCES "public"."document"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_type" ADD CONSTRAINT "incident_type_tracking_template_document_id_document_id_fk" FOREIGN KEY ("tracking_template_document_id") REFERENCES "public"."document"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "individual_contact" ADD CONSTRAINT "individual_contact_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "individual_contact" ADD CONSTRAINT "individual_contact_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "individual_contact_filter" ADD CONSTRAINT "individual_contact_filter_individual_contact_id_individual_contact_id_fk" FOREIGN KEY ("individual_contact_id") REFERENCES "public"."individual_contact"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "individual_contact_filter" ADD CONSTRAINT "individual_contact_filter_search_filter_id_search_filter_id_fk" FOREIGN KEY ("search_filter_id") REFERENCES "public"."search_filter"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "notification" ADD CONSTRAINT "notification_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "notification" ADD CONSTRAINT "notification_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "notification_filter" ADD CONSTRAINT "notification_filter_notification_id_notification_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notification"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "notification_filter" ADD CONSTRAINT "notification_filter_search_filter_id_search_filter_id_fk" FOREIGN KEY ("search_filter_id") REFERENCES "public"."search_filter"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "query" ADD CONSTRAINT "query_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "query" ADD CONSTRAINT "query_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "query" ADD CONSTRAINT "query_source_id_source_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."source"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "query_tag" ADD CONSTRAINT "query_tag_query_id_query_id_fk" FOREIGN KEY ("query_id") REFERENCES "public"."query"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "query_tag" ADD CONSTRAINT "query_tag_tag_id_tag_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tag"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "search_filter" ADD CONSTRAINT "search_filter_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "search_filter" ADD CONSTRAINT "search_filter_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "search_filter" ADD CONSTRAINT "search_filter_creator_id_app_user_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "service" ADD CONSTRAINT "service_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "service" ADD CONSTRAINT "service_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "service_filter" ADD CONSTRAINT "service_filter_service_id_service_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."service"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "service_filter" ADD CONSTRAINT "service_filter_search_filter_id_search_filter_id_fk" FOREIGN KEY ("search_filter_id") REFERENCES "public"."search_filter"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source" ADD CONSTRAINT "source_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source" ADD CONSTRAINT "source_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source" ADD CONSTRAINT "source_owner_id_service_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."service"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source" ADD CONSTRAINT "source_source_data_format_id_source_data_format_id_fk" FOREIGN KEY ("source_data_format_id") REFERENCES "public"."source_data_format"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source" ADD CONSTRAINT "source_source_environment_id_source_environment_id_fk" FOREIGN KEY ("source_environment_id") REFERENCES "public"."source_environment"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source" ADD CONSTRAINT "source_source_status_id_source_status_id_fk" FOREIGN KEY ("source_status_id") REFERENCES "public"."source_status"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source" ADD CONSTRAINT "source_source_transport_id_source_transport_id_fk" FOREIGN KEY ("source_transport_id") REFERENCES "public"."source_transport"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source" ADD CONSTRAINT "source_source_type_id_source_type_id_fk" FOREIGN KEY ("source_type_id") REFERENCES "public"."source_type"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source_data_format" ADD CONSTRAINT "source_data_format_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source_data_format" ADD CONSTRAINT "source_data_format_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source_environment" ADD CONSTRAINT "source_environment_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source_environment" ADD CONSTRAINT "source_environment_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source_status" ADD CONSTRAINT "source_status_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source_status" ADD CONSTRAINT "source_status_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source_tag" ADD CONSTRAINT "source_tag_source_id_source_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."source"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source_tag" ADD CONSTRAINT "source_tag_tag_id_tag_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tag"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source_transport" ADD CONSTRAINT "source_transport_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source_transport" ADD CONSTRAINT "source_transport_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source_type" ADD CONSTRAINT "source_type_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "source_type" ADD CONSTRAINT "source_type_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "tag" ADD CONSTRAINT "tag_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "tag" ADD CONSTRAINT "tag_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "tag" ADD CONSTRAINT "tag_tag_type_id_tag_type_id_fk" FOREIGN KEY ("tag_type_id") REFERENCES "public"."tag_type"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "tag_type" ADD CONSTRAINT "tag_type_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "tag_type" ADD CONSTRAINT "tag_type_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "team_contact" ADD CONSTRAINT "team_contact_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "team_contact" ADD CONSTRAINT "team_contact_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "team_contact_filter" ADD CONSTRAINT "team_contact_filter_team_contact_id_team_contact_id_fk" FOREIGN KEY ("team_contact_id") REFERENCES "public"."team_contact"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "team_contact_filter" ADD CONSTRAINT "team_contact_filter_search_filter_id_search_filter_id_fk" FOREIGN KEY ("search_filter_id") REFERENCES "public"."search_filter"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "term" ADD CONSTRAINT "term_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "term" ADD CONSTRAINT "term_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "alert_organization_idx" ON "alert" USING btree ("organization_id");
--> statement-breakpoint
CREATE INDEX "alert_source_idx" ON "alert" USING btree ("source_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "case_priority_project_name_key" ON "case_priority" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "case_priority_search_idx" ON "case_priority" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "case_severity_project_name_key" ON "case_severity" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "case_severity_search_idx" ON "case_severity" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "case_type_project_name_key" ON "case_type" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "case_type_search_idx" ON "case_type" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "definition_project_text_key" ON "definition" USING btree ("project_id","text");
--> statement-breakpoint
CREATE INDEX "definition_search_idx" ON "definition" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "definition_term_term_id_idx" ON "definition_term" USING btree ("term_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "document_project_name_key" ON "document" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "document_search_idx" ON "document" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "document_filter_search_filter_id_idx" ON "document_filter" USING btree ("search_filter_id");
--> statement-breakpoint
CREATE INDEX "entity_type_value_idx" ON "entity" USING btree ("entity_type_id","value");
--> statement-breakpoint
CREATE INDEX "entity_project_idx" ON "entity" USING btree ("project_id");
--> statement-breakpoint
CREATE INDEX "entity_search_idx" ON "entity" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "entity_type_project_name_key" ON "entity_type" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "entity_type_search_idx" ON "entity_type" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "incident_cost_type_project_name_key" ON "incident_cost_type" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "incident_cost_type_search_idx" ON "incident_cost_type" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "incident_priority_project_name_key" ON "incident_priority" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "incident_priority_search_idx" ON "incident_priority" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "incident_severity_project_name_key" ON "incident_severity" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "incident_severity_search_idx" ON "incident_severity" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "incident_type_project_name_key" ON "incident_type" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "incident_type_search_idx" ON "incident_type" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "individual_contact_project_email_key" ON "individual_contact" USING btree ("project_id","email");
--> statement-breakpoint
CREATE INDEX "individual_contact_search_idx" ON "individual_contact" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "individual_contact_filter_search_filter_id_idx" ON "individual_contact_filter" USING btree ("search_filter_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "notification_project_name_key" ON "notification" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "notification_search_idx" ON "notification" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "notification_filter_search_filter_id_idx" ON "notification_filter" USING btree ("search_filter_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "query_project_name_key" ON "query" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "query_source_idx" ON "query" USING btree ("source_id");
--> statement-breakpoint
CREATE INDEX "query_search_idx" ON "query" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "query_tag_tag_id_idx" ON "query_tag" USING btree ("tag_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "search_filter_project_name_key" ON "search_filter" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "search_filter_search_idx" ON "search_filter" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "service_project_external_id_key" ON "service" USING btree ("project_id","external_id");
--> statement-breakpoint
CREATE INDEX "service_search_idx" ON "service" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "service_filter_search_filter_id_idx" ON "service_filter" USING btree ("search_filter_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "source_project_name_key" ON "source" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "source_search_idx" ON "source" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "source_data_format_project_name_key" ON "source_data_format" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "source_data_format_search_idx" ON "source_data_format" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "source_environment_project_name_key" ON "source_environment" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "source_environment_search_idx" ON "source_environment" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "source_status_project_name_key" ON "source_status" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "source_status_search_idx" ON "source_status" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "source_tag_tag_id_idx" ON "source_tag" USING btree ("tag_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "source_transport_project_name_key" ON "source_transport" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "source_transport_search_idx" ON "source_transport" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "source_type_project_name_key" ON "source_type" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "source_type_search_idx" ON "source_type" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "tag_type_name_key" ON "tag" USING btree ("tag_type_id","name");
--> statement-breakpoint
CREATE INDEX "tag_project_idx" ON "tag" USING btree ("project_id");
--> statement-breakpoint
CREATE INDEX "tag_search_idx" ON "tag" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "tag_type_project_name_key" ON "tag_type" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "tag_type_search_idx" ON "tag_type" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "team_contact_project_email_key" ON "team_contact" USING btree ("project_id","email");
--> statement-breakpoint
CREATE INDEX "team_contact_search_idx" ON "team_contact" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "team_contact_filter_search_filter_id_idx" ON "team_contact_filter" USING btree ("search_filter_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "term_project_text_key" ON "term" USING btree ("project_id","text");
--> statement-breakpoint
CREATE INDEX "term_search_idx" ON "term" USING gin ("search_vector");
