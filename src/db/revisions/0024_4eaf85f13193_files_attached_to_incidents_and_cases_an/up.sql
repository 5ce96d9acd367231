CREATE TABLE "participant_group" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"incident_id" integer,
	"case_id" integer,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"resource_id" text,
	"resource_type" text,
	"weblink" text,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "record_file" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"incident_id" integer,
	"case_id" integer,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"creator" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "participant_group" ADD CONSTRAINT "participant_group_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "participant_group" ADD CONSTRAINT "participant_group_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "participant_group" ADD CONSTRAINT "participant_group_incident_id_incident_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incident"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "participant_group" ADD CONSTRAINT "participant_group_case_id_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."case"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "record_file" ADD CONSTRAINT "record_file_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "record_file" ADD CONSTRAINT "record_file_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "record_file" ADD CONSTRAINT "record_file_incident_id_incident_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incident"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "record_file" ADD CONSTRAINT "record_file_case_id_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."case"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "participant_group_incident_kind_key" ON "participant_group" USING btree ("incident_id","kind");
--> statement-breakpoint
CREATE UNIQUE INDEX "participant_group_case_kind_key" ON "participant_group" USING btree ("case_id","kind");
--> statement-breakpoint
CREATE INDEX "record_file_incident_idx" ON "record_file" USING btree ("incident_id");
--> statement-breakpoint
CREATE INDEX "record_file_case_idx" ON "record_file" USING btree ("case_id");
