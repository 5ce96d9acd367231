CREATE TABLE "case_duplicate" (
	"case_id" integer NOT NULL,
	"duplicate_id" integer NOT NULL,
	CONSTRAINT "case_duplicate_case_id_duplicate_id_pk" PRIMARY KEY("case_id","duplicate_id")
);
--> statement-breakpoint
CREATE TABLE "case_incident" (
	"case_id" integer NOT NULL,
	"incident_id" integer NOT NULL,
	CONSTRAINT "case_incident_case_id_incident_id_pk" PRIMARY KEY("case_id","incident_id")
);
--> statement-breakpoint
CREATE TABLE "case_related" (
	"case_id" integer NOT NULL,
	"related_id" integer NOT NULL,
	CONSTRAINT "case_related_case_id_related_id_pk" PRIMARY KEY("case_id","related_id")
);
--> statement-breakpoint
CREATE TABLE "case" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"resolution" text,
	"resolution_reason" text,
	"status" text DEFAULT 'New' NOT NULL,
	"visibility" text DEFAULT 'Open' NOT NULL,
	"case_type_id" integer NOT NULL,
	"case_priority_id" integer NOT NULL,
	"case_severity_id" integer NOT NULL,
	"assignee_id" integer,
	"reporter_id" integer,
	"storage" jsonb,
	"ticket" jsonb,
	"reported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"triage_at" timestamp with time zone,
	"escalated_at" timestamp with time zone,
	"stable_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("title"::text, '')), 'B') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'C')) STORED
);
--> statement-breakpoint
CREATE TABLE "case_tag" (
	"case_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "case_tag_case_id_tag_id_pk" PRIMARY KEY("case_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "signal" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"owner" text NOT NULL,
	"external_id" text NOT NULL,
	"external_url" text,
	"variant" text,
	"enabled" boolean DEFAULT false NOT NULL,
	"create_case" boolean DEFAULT true NOT NULL,
	"conversation_target" text,
	"case_type_id" integer,
	"case_priority_id" integer,
	"oncall_service_id" integer,
	"source_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'B') || setweight(to_tsvector('simple'::regconfig, coalesce("variant"::text, '')), 'C') || setweight(to_tsvector('simple'::regconfig, coalesce("external_id"::text, '')), 'D')) STORED
);
--> statement-breakpoint
CREATE TABLE "signal_entity_type" (
	"signal_id" integer NOT NULL,
	"entity_type_id" integer NOT NULL,
	CONSTRAINT "signal_entity_type_signal_id_entity_type_id_pk" PRIMARY KEY("signal_id","entity_type_id")
);
--> statement-breakpoint
CREATE TABLE "signal_filter" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"expression" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"mode" text DEFAULT 'active' NOT NULL,
	"action" text DEFAULT 'snooze' NOT NULL,
	"window" integer DEFAULT 600 NOT NULL,
	"expiration" timestamp with time zone,
	"creator_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "signal_filter_link" (
	"signal_id" integer NOT NULL,
	"signal_filter_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "signal_filter_link_signal_id_signal_filter_id_pk" PRIMARY KEY("signal_id","signal_filter_id")
);
--> statement-breakpoint
CREATE TABLE "signal_instance" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"signal_id" integer NOT NULL,
	"case_id" integer,
	"raw" jsonb NOT NULL,
	"fingerprint" text,
	"filter_action" text,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signal_instance_entity" (
	"signal_instance_id" uuid NOT NULL,
	"entity_id" integer NOT NULL,
	CONSTRAINT "signal_instance_entity_signal_instance_id_entity_id_pk" PRIMARY KEY("signal_instance_id","entity_id")
);
--> statement-breakpoint
CREATE TABLE "signal_tag" (
	"signal_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "signal_tag_signal_id_tag_id_pk" PRIMARY KEY("signal_id","tag_id")
);
--> statement-breakpoint
DROP INDEX "entity_type_value_idx";
--> statement-breakpoint
ALTER TABLE "event" ADD COLUMN "case_id" integer;
--> statement-breakpoint
ALTER TABLE "participant" ADD COLUMN "case_id" integer;
--> statement-breakpoint
ALTER TABLE "case_duplicate" ADD CONSTRAINT "case_duplicate_case_id_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."case"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_duplicate" ADD CONSTRAINT "case_duplicate_duplicate_id_case_id_fk" FOREIGN KEY ("duplicate_id") REFERENCES "public"."case"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_incident" ADD CONSTRAINT "case_incident_case_id_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."case"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_incident" ADD CONSTRAINT "case_incident_incident_id_incident_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incident"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_related" ADD CONSTRAINT "case_related_case_id_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."case"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_related" ADD CONSTRAINT "case_related_related_id_case_id_fk" FOREIGN KEY ("related_id") REFERENCES "public"."case"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case" ADD CONSTRAINT "case_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case" ADD CONSTRAINT "case_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case" ADD CONSTRAINT "case_case_type_id_case_type_id_fk" FOREIGN KEY ("case_type_id") REFERENCES "public"."case_type"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case" ADD CONSTRAINT "case_case_priority_id_case_priority_id_fk" FOREIGN KEY ("case_priority_id") REFERENCES "public"."case_priority"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case" ADD CONSTRAINT "case_case_severity_id_case_severity_id_fk" FOREIGN KEY ("case_severity_id") REFERENCES "public"."case_severity"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case" ADD CONSTRAINT "case_assignee_id_participant_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."participant"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case" ADD CONSTRAINT "case_reporter_id_participant_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."participant"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_tag" ADD CONSTRAINT "case_tag_case_id_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."case"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_tag" ADD CONSTRAINT "case_tag_tag_id_tag_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tag"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal" ADD CONSTRAINT "signal_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal" ADD CONSTRAINT "signal_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal" ADD CONSTRAINT "signal_case_type_id_case_type_id_fk" FOREIGN KEY ("case_type_id") REFERENCES "public"."case_type"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal" ADD CONSTRAINT "signal_case_priority_id_case_priority_id_fk" FOREIGN KEY ("case_priority_id") REFERENCES "public"."case_priority"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal" ADD CONSTRAINT "signal_oncall_service_id_service_id_fk" FOREIGN KEY ("oncall_service_id") REFERENCES "public"."service"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal" ADD CONSTRAINT "signal_source_id_source_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."source"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_entity_type" ADD CONSTRAINT "signal_entity_type_signal_id_signal_id_fk" FOREIGN KEY ("signal_id") REFERENCES "public"."signal"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_entity_type" ADD CONSTRAINT "signal_entity_type_entity_type_id_entity_type_id_fk" FOREIGN KEY ("entity_type_id") REFERENCES "public"."entity_type"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_filter" ADD CONSTRAINT "signal_filter_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_filter" ADD CONSTRAINT "signal_filter_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_filter" ADD CONSTRAINT "signal_filter_creator_id_app_user_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_filter_link" ADD CONSTRAINT "signal_filter_link_signal_id_signal_id_fk" FOREIGN KEY ("signal_id") REFERENCES "public"."signal"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_filter_link" ADD CONSTRAINT "signal_filter_link_signal_filter_id_signal_filter_id_fk" FOREIGN KEY ("signal_filter_id") REFERENCES "public"."signal_filter"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_instance" ADD CONSTRAINT "signal_instance_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_instance" ADD CONSTRAINT "signal_instance_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_instance" ADD CONSTRAINT "signal_instance_signal_id_signal_id_fk" FOREIGN KEY ("signal_id") REFERENCES "public"."signal"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_instance" ADD CONSTRAINT "signal_instance_case_id_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."case"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_instance_entity" ADD CONSTRAINT "signal_instance_entity_signal_instance_id_signal_instance_id_fk" FOREIGN KEY ("signal_instance_id") REFERENCES "public"."signal_instance"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_instance_entity" ADD CONSTRAINT "signal_instance_entity_entity_id_entity_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entity"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_tag" ADD CONSTRAINT "signal_tag_signal_id_signal_id_fk" FOREIGN KEY ("signal_id") REFERENCES "public"."signal"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signal_tag" ADD CONSTRAINT "signal_tag_tag_id_tag_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tag"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "case_duplicate_duplicate_id_idx" ON "case_duplicate" USING btree ("duplicate_id");
--> statement-breakpoint
CREATE INDEX "case_incident_incident_id_idx" ON "case_incident" USING btree ("incident_id");
--> statement-breakpoint
CREATE INDEX "case_related_related_id_idx" ON "case_related" USING btree ("related_id");
--> statement-breakpoint
CREATE INDEX "case_organization_status_idx" ON "case" USING btree ("organization_id","status","reported_at");
--> statement-breakpoint
CREATE INDEX "case_organization_reported_idx" ON "case" USING btree ("organization_id","reported_at");
--> statement-breakpoint
CREATE INDEX "case_organization_id_idx" ON "case" USING btree ("organization_id","id");
--> statement-breakpoint
CREATE INDEX "case_project_idx" ON "case" USING btree ("project_id");
--> statement-breakpoint
CREATE INDEX "case_priority_idx" ON "case" USING btree ("case_priority_id");
--> statement-breakpoint
CREATE INDEX "case_type_idx" ON "case" USING btree ("case_type_id");
--> statement-breakpoint
CREATE INDEX "case_severity_idx" ON "case" USING btree ("case_severity_id");
--> statement-breakpoint
CREATE INDEX "case_search_idx" ON "case" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "case_tag_tag_id_idx" ON "case_tag" USING btree ("tag_id");
--> statement-breakpoint
CREATE INDEX "signal_project_variant_idx" ON "signal" USING btree ("project_id","variant");
--> statement-breakpoint
CREATE INDEX "signal_project_external_idx" ON "signal" USING btree ("project_id","external_id");
--> statement-breakpoint
CREATE INDEX "signal_search_idx" ON "signal" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "signal_entity_type_entity_type_id_idx" ON "signal_entity_type" USING btree ("entity_type_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "signal_filter_project_name_key" ON "signal_filter" USING btree ("project_id","name");
--> statement-breakpoint
CREATE INDEX "signal_filter_search_idx" ON "signal_filter" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "signal_filter_link_filter_idx" ON "signal_filter_link" USING btree ("signal_filter_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "signal_instance_idempotency_key" ON "signal_instance" USING btree ("organization_id","idempotency_key");
--> statement-breakpoint
CREATE INDEX "signal_instance_signal_created_idx" ON "signal_instance" USING btree ("signal_id","created_at");
--> statement-breakpoint
CREATE INDEX "signal_instance_fingerprint_idx" ON "signal_instance" USING btree ("signal_id","fingerprint","created_at");
--> statement-breakpoint
CREATE INDEX "signal_instance_case_idx" ON "signal_instance" USING btree ("case_id");
--> statement-breakpoint
CREATE INDEX "signal_instance_organization_created_idx" ON "signal_instance" USING btree ("organization_id","created_at");
--> statement-breakpoint
CREATE INDEX "signal_instance_entity_entity_idx" ON "signal_instance_entity" USING btree ("entity_id");
--> statement-breakpoint
CREATE INDEX "signal_tag_tag_id_idx" ON "signal_tag" USING btree ("tag_id");
--> statement-breakpoint
ALTER TABLE "event" ADD CONSTRAINT "event_case_id_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."case"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "participant" ADD CONSTRAINT "participant_case_id_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."case"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Entities of one type and value were allowed twice before: keep the oldest of each.
DELETE FROM "entity" a USING "entity" b WHERE a."entity_type_id" = b."entity_type_id" AND a."value" = b."value" AND a."id" > b."id";
--> statement-breakpoint
CREATE UNIQUE INDEX "entity_type_value_key" ON "entity" USING btree ("entity_type_id","value");
--> statement-breakpoint
CREATE INDEX "event_case_idx" ON "event" USING btree ("case_id","started_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "participant_case_individual_key" ON "participant" USING btree ("case_id","individual_contact_id");
