CREATE TABLE "case_document_link" (
	"case_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	CONSTRAINT "case_document_link_case_id_document_id_pk" PRIMARY KEY("case_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "document_revision" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"version" integer NOT NULL,
	"content" text NOT NULL,
	"author" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "incident_document_link" (
	"incident_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	CONSTRAINT "incident_document_link_incident_id_document_id_pk" PRIMARY KEY("incident_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "record_document" (
	"document_id" integer PRIMARY KEY NOT NULL,
	"incident_id" integer,
	"case_id" integer
);
--> statement-breakpoint
ALTER TABLE "document" ADD COLUMN "content" text;
--> statement-breakpoint
ALTER TABLE "document" drop column "search_vector";
--> statement-breakpoint
ALTER TABLE "document" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("content"::text, '')), 'B')) STORED;
--> statement-breakpoint
CREATE INDEX "document_search_idx" ON "document" USING gin ("search_vector");
--> statement-breakpoint
ALTER TABLE "document" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "document" ADD COLUMN "read_only" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "case_document_link" ADD CONSTRAINT "case_document_link_case_id_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."case"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_document_link" ADD CONSTRAINT "case_document_link_document_id_document_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."document"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "document_revision" ADD CONSTRAINT "document_revision_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "document_revision" ADD CONSTRAINT "document_revision_document_id_document_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."document"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_document_link" ADD CONSTRAINT "incident_document_link_incident_id_incident_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incident"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "incident_document_link" ADD CONSTRAINT "incident_document_link_document_id_document_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."document"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "record_document" ADD CONSTRAINT "record_document_document_id_document_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."document"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "record_document" ADD CONSTRAINT "record_document_incident_id_incident_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incident"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "record_document" ADD CONSTRAINT "record_document_case_id_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."case"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "case_document_link_document_id_idx" ON "case_document_link" USING btree ("document_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "document_revision_version_key" ON "document_revision" USING btree ("document_id","version");
--> statement-breakpoint
CREATE INDEX "incident_document_link_document_id_idx" ON "incident_document_link" USING btree ("document_id");
--> statement-breakpoint
CREATE INDEX "record_document_incident_idx" ON "record_document" USING btree ("incident_id");
--> statement-breakpoint
CREATE INDEX "record_document_case_idx" ON "record_document" USING btree ("case_id");
