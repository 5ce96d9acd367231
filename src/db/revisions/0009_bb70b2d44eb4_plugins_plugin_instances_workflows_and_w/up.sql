CREATE TABLE "plugin" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"type" text NOT NULL,
	"version" text NOT NULL,
	"author" text NOT NULL,
	"author_url" text DEFAULT '' NOT NULL,
	"multiple" boolean DEFAULT false NOT NULL,
	"description" text,
	CONSTRAINT "plugin_slug_key" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "plugin_instance" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"plugin_id" integer NOT NULL,
	"plugin_type" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"configuration" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflow" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"resource_id" text NOT NULL,
	"parameters" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"plugin_instance_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "workflow_instance" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"workflow_id" integer NOT NULL,
	"status" text DEFAULT 'Submitted' NOT NULL,
	"parameters" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"run_reason" text,
	"resource_id" text,
	"resource_type" text,
	"weblink" text,
	"creator_id" integer,
	"incident_id" integer,
	"case_id" integer,
	"signal_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflow_instance_artifact" (
	"workflow_instance_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	CONSTRAINT "workflow_instance_artifact_workflow_instance_id_document_id_pk" PRIMARY KEY("workflow_instance_id","document_id")
);
--> statement-breakpoint
ALTER TABLE "plugin_instance" ADD CONSTRAINT "plugin_instance_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "plugin_instance" ADD CONSTRAINT "plugin_instance_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "plugin_instance" ADD CONSTRAINT "plugin_instance_plugin_id_plugin_id_fk" FOREIGN KEY ("plugin_id") REFERENCES "public"."plugin"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "workflow" ADD CONSTRAINT "workflow_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "workflow" ADD CONSTRAINT "workflow_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "workflow" ADD CONSTRAINT "workflow_plugin_instance_id_plugin_instance_id_fk" FOREIGN KEY ("plugin_instance_id") REFERENCES "public"."plugin_instance"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "workflow_instance" ADD CONSTRAINT "workflow_instance_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "workflow_instance" ADD CONSTRAINT "workflow_instance_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "workflow_instance" ADD CONSTRAINT "workflow_instance_workflow_id_workflow_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflow"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "workflow_instance" ADD CONSTRAINT "workflow_instance_creator_id_participant_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."participant"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "workflow_instance" ADD CONSTRAINT "workflow_instance_incident_id_incident_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incident"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "workflow_instance" ADD CONSTRAINT "workflow_instance_case_id_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."case"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "workflow_instance" ADD CONSTRAINT "workflow_instance_signal_id_signal_id_fk" FOREIGN KEY ("signal_id") REFERENCES "public"."signal"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "workflow_instance_artifact" ADD CONSTRAINT "workflow_instance_artifact_workflow_instance_id_workflow_instance_id_fk" FOREIGN KEY ("workflow_instance_id") REFERENCES "public"."workflow_instance"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "workflow_instance_artifact" ADD CONSTRAINT "workflow_instance_artifact_document_id_document_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."document"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "plugin_instance_project_idx" ON "plugin_instance" USING btree ("project_id","plugin_id");
--> statement-breakpoint
CREATE INDEX "plugin_instance_organization_idx" ON "plugin_instance" USING btree ("organization_id","id");
--> statement-breakpoint
CREATE UNIQUE INDEX "plugin_instance_enabled_type_key" ON "plugin_instance" USING btree ("project_id","plugin_type") WHERE enabled;
--> statement-breakpoint
CREATE INDEX "workflow_project_idx" ON "workflow" USING btree ("project_id");
--> statement-breakpoint
CREATE INDEX "workflow_organization_idx" ON "workflow" USING btree ("organization_id","id");
--> statement-breakpoint
CREATE INDEX "workflow_search_idx" ON "workflow" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "workflow_instance_workflow_idx" ON "workflow_instance" USING btree ("workflow_id");
--> statement-breakpoint
CREATE INDEX "workflow_instance_incident_idx" ON "workflow_instance" USING btree ("incident_id");
--> statement-breakpoint
CREATE INDEX "workflow_instance_case_idx" ON "workflow_instance" USING btree ("case_id");
--> statement-breakpoint
CREATE INDEX "workflow_instance_organization_idx" ON "workflow_instance" USING btree ("organization_id","id");
--> statement-breakpoint
CREATE INDEX "workflow_instance_artifact_document_idx" ON "workflow_instance_artifact" USING btree ("document_id");
