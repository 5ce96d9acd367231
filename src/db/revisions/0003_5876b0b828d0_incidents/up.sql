CREATE TABLE "event" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" integer NOT NULL,
	"incident_id" integer,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	"description" text NOT NULL,
	"details" jsonb,
	"type" text DEFAULT 'Other' NOT NULL,
	"owner" text,
	"pinned" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feedback" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"incident_id" integer,
	"participant_id" integer,
	"rating" text DEFAULT 'Very satisfied' NOT NULL,
	"feedback" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("feedback"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("rating"::text, '')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "incident" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"resolution" text,
	"status" text DEFAULT 'Active' NOT NULL,
	"visibility" text DEFAULT 'Open' NOT NULL,
	"incident_type_id" integer NOT NULL,
	"incident_priority_id" integer NOT NULL,
	"incident_severity_id" integer NOT NULL,
	"commander_id" integer,
	"reporter_id" integer,
	"participants_team" text,
	"participants_location" text,
	"commanders_location" text,
	"reporters_location" text,
	"conference" jsonb,
	"conversation" jsonb,
	"storage" jsonb,
	"ticket" jsonb,
	"reported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stable_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("title"::text, '')), 'B') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'C')) STORED
);
--> statement-breakpoint
CREATE TABLE "incident_cost" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"incident_id" integer,
	"incident_cost_type_id" integer NOT NULL,
	"amount" double precision DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "incident_duplicate" (
	"incident_id" integer NOT NULL,
	"duplicate_id" integer NOT NULL,
	CONSTRAINT "incident_duplicate_incident_id_duplicate_id_pk" PRIMARY KEY("incident_id","duplicate_id")
);
--> statement-breakpoint
CREATE TABLE "incident_role_policy" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"role" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"order" integer DEFAULT 1 NOT NULL,
	"service_id" integer,
	"individual_contact_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role_policy_incident_priority" (
	"policy_id" integer NOT NULL,
	"incident_priority_id" integer NOT NULL,
	CONSTRAINT "role_policy_incident_priority_policy_id_incident_priority_id_pk" PRIMARY KEY("policy_id","incident_priority_id")
);
--> statement-breakpoint
CREATE TABLE "role_policy_tag" (
	"policy_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "role_policy_tag_policy_id_tag_id_pk" PRIMARY KEY("policy_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "role_policy_incident_type" (
	"policy_id" integer NOT NULL,
	"incident_type_id" integer NOT NULL,
	CONSTRAINT "role_policy_incident_type_policy_id_incident_type_id_pk" PRIMARY KEY("policy_id","incident_type_id")
);
--> statement-breakpoint
CREATE TABLE "incident_tag" (
	"incident_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "incident_tag_incident_id_tag_id_pk" PRIMARY KEY("incident_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "incident_term" (
	"incident_id" integer NOT NULL,
	"term_id" integer NOT NULL,
	CONSTRAINT "incident_term_incident_id_term_id_pk" PRIMARY KEY("incident_id","term_id")
);
--> statement-breakpoint
CREATE TABLE "participant" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"incident_id" integer,
	"individual_contact_id" integer NOT NULL,
	"team" text,
	"department" text,
	"location" text,
	"added_reason" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "participant_role" (
	"id" serial PRIMARY KEY NOT NULL,
	"participant_id" integer NOT NULL,
	"role" text NOT NULL,
	"assumed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"renounced_at" timestamp with time zone,
	"activity" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"incident_id" integer NOT NULL,
	"participant_id" integer,
	"type" text NOT NULL,
	"details" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"incident_id" integer NOT NULL,
	"description" text,
	"status" text DEFAULT 'Open' NOT NULL,
	"priority" text,
	"source" text,
	"resource_id" text,
	"resource_type" text,
	"weblink" text,
	"reminders" boolean DEFAULT true NOT NULL,
	"resolve_by" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	"creator_id" integer,
	"owner_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'A')) STORED
);
--> statement-breakpoint
CREATE TABLE "task_assignee" (
	"task_id" integer NOT NULL,
	"participant_id" integer NOT NULL,
	CONSTRAINT "task_assignee_task_id_participant_id_pk" PRIMARY KEY("task_id","participant_id")
);
--> statement-breakpoint
ALTER TABLE "event" ADD CONSTRAINT "event_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "event" ADD CONSTRAINT "event_incident_id_incident_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incident"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_incident_id_incident_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incident"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_participant_id_participant_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participant"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident" ADD CONSTRAINT "incident_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident" ADD CONSTRAINT "incident_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident" ADD CONSTRAINT "incident_incident_type_id_incident_type_id_fk" FOREIGN KEY ("incident_type_id") REFERENCES "public"."incident_type"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident" ADD CONSTRAINT "incident_incident_priority_id_incident_priority_id_fk" FOREIGN KEY ("incident_priority_id") REFERENCES "public"."incident_priority"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident" ADD CONSTRAINT "incident_incident_severity_id_incident_severity_id_fk" FOREIGN KEY ("incident_severity_id") REFERENCES "public"."incident_severity"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident" ADD CONSTRAINT "incident_commander_id_participant_id_fk" FOREIGN KEY ("commander_id") REFERENCES "public"."participant"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident" ADD CONSTRAINT "incident_reporter_id_participant_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."participant"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_cost" ADD CONSTRAINT "incident_cost_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_cost" ADD CONSTRAINT "incident_cost_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_cost" ADD CONSTRAINT "incident_cost_incident_id_incident_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incident"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_cost" ADD CONSTRAINT "incident_cost_incident_cost_type_id_incident_cost_type_id_fk" FOREIGN KEY ("incident_cost_type_id") REFERENCES "public"."incident_cost_type"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_duplicate" ADD CONSTRAINT "incident_duplicate_incident_id_incident_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incident"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_duplicate" ADD CONSTRAINT "incident_duplicate_duplicate_id_incident_id_fk" FOREIGN KEY ("duplicate_id") REFERENCES "public"."incident"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_role_policy" ADD CONSTRAINT "incident_role_policy_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_role_policy" ADD CONSTRAINT "incident_role_policy_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_role_policy" ADD CONSTRAINT "incident_role_policy_service_id_service_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."service"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_role_policy" ADD CONSTRAINT "incident_role_policy_individual_contact_id_individual_contact_id_fk" FOREIGN KEY ("individual_contact_id") REFERENCES "public"."individual_contact"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "role_policy_incident_priority" ADD CONSTRAINT "role_policy_incident_priority_policy_id_incident_role_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."incident_role_policy"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "role_policy_incident_priority" ADD CONSTRAINT "role_policy_incident_priority_incident_priority_id_incident_priority_id_fk" FOREIGN KEY ("incident_priority_id") REFERENCES "public"."incident_priority"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "role_policy_tag" ADD CONSTRAINT "role_policy_tag_policy_id_incident_role_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."incident_role_policy"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "role_policy_tag" ADD CONSTRAINT "role_policy_tag_tag_id_tag_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tag"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "role_policy_incident_type" ADD CONSTRAINT "role_policy_incident_type_policy_id_incident_role_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."incident_role_policy"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "role_policy_incident_type" ADD CONSTRAINT "role_policy_incident_type_incident_type_id_incident_type_id_fk" FOREIGN KEY ("incident_type_id") REFERENCES "public"."incident_type"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_tag" ADD CONSTRAINT "incident_tag_incident_id_incident_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incident"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_tag" ADD CONSTRAINT "incident_tag_tag_id_tag_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tag"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_term" ADD CONSTRAINT "incident_term_incident_id_incident_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incident"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_term" ADD CONSTRAINT "incident_term_term_id_term_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."term"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "participant" ADD CONSTRAINT "participant_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "participant" ADD CONSTRAINT "participant_incident_id_incident_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incident"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "participant" ADD CONSTRAINT "participant_individual_contact_id_individual_contact_id_fk" FOREIGN KEY ("individual_contact_id") REFERENCES "public"."individual_contact"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "participant_role" ADD CONSTRAINT "participant_role_participant_id_participant_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participant"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "report" ADD CONSTRAINT "report_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "report" ADD CONSTRAINT "report_incident_id_incident_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incident"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "report" ADD CONSTRAINT "report_participant_id_participant_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participant"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "task" ADD CONSTRAINT "task_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "task" ADD CONSTRAINT "task_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "task" ADD CONSTRAINT "task_incident_id_incident_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incident"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "task" ADD CONSTRAINT "task_creator_id_participant_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."participant"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "task" ADD CONSTRAINT "task_owner_id_participant_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."participant"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "task_assignee" ADD CONSTRAINT "task_assignee_task_id_task_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."task"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "task_assignee" ADD CONSTRAINT "task_assignee_participant_id_participant_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participant"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "event_incident_idx" ON "event" USING btree ("incident_id","started_at");
--> statement-breakpoint
CREATE INDEX "feedback_incident_idx" ON "feedback" USING btree ("incident_id");
--> statement-breakpoint
CREATE INDEX "feedback_search_idx" ON "feedback" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "incident_organization_status_idx" ON "incident" USING btree ("organization_id","status","reported_at");
--> statement-breakpoint
CREATE INDEX "incident_organization_reported_idx" ON "incident" USING btree ("organization_id","reported_at");
--> statement-breakpoint
CREATE INDEX "incident_organization_id_idx" ON "incident" USING btree ("organization_id","id");
--> statement-breakpoint
CREATE INDEX "incident_project_idx" ON "incident" USING btree ("project_id");
--> statement-breakpoint
CREATE INDEX "incident_priority_idx" ON "incident" USING btree ("incident_priority_id");
--> statement-breakpoint
CREATE INDEX "incident_type_idx" ON "incident" USING btree ("incident_type_id");
--> statement-breakpoint
CREATE INDEX "incident_severity_idx" ON "incident" USING btree ("incident_severity_id");
--> statement-breakpoint
CREATE INDEX "incident_search_idx" ON "incident" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "incident_cost_incident_idx" ON "incident_cost" USING btree ("incident_id");
--> statement-breakpoint
CREATE INDEX "incident_cost_type_idx" ON "incident_cost" USING btree ("incident_cost_type_id");
--> statement-breakpoint
CREATE INDEX "incident_duplicate_duplicate_id_idx" ON "incident_duplicate" USING btree ("duplicate_id");
--> statement-breakpoint
CREATE INDEX "incident_role_policy_project_role_idx" ON "incident_role_policy" USING btree ("project_id","role");
--> statement-breakpoint
CREATE INDEX "role_policy_incident_priority_incident_priority_id_idx" ON "role_policy_incident_priority" USING btree ("incident_priority_id");
--> statement-breakpoint
CREATE INDEX "role_policy_tag_tag_id_idx" ON "role_policy_tag" USING btree ("tag_id");
--> statement-breakpoint
CREATE INDEX "role_policy_incident_type_incident_type_id_idx" ON "role_policy_incident_type" USING btree ("incident_type_id");
--> statement-breakpoint
CREATE INDEX "incident_tag_tag_id_idx" ON "incident_tag" USING btree ("tag_id");
--> statement-breakpoint
CREATE INDEX "incident_term_term_id_idx" ON "incident_term" USING btree ("term_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "participant_incident_individual_key" ON "participant" USING btree ("incident_id","individual_contact_id");
--> statement-breakpoint
CREATE INDEX "participant_individual_idx" ON "participant" USING btree ("individual_contact_id");
--> statement-breakpoint
CREATE INDEX "participant_role_participant_idx" ON "participant_role" USING btree ("participant_id");
--> statement-breakpoint
CREATE INDEX "report_incident_type_idx" ON "report" USING btree ("incident_id","type","created_at");
--> statement-breakpoint
CREATE INDEX "task_incident_idx" ON "task" USING btree ("incident_id");
--> statement-breakpoint
CREATE INDEX "task_organization_status_idx" ON "task" USING btree ("organization_id","status");
--> statement-breakpoint
CREATE INDEX "task_search_idx" ON "task" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "task_assignee_participant_id_idx" ON "task_assignee" USING btree ("participant_id");
