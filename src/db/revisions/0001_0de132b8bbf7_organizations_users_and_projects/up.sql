CREATE TABLE "app_user" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("email"::text, '')), 'A')) STORED
);
--> statement-breakpoint
CREATE TABLE "organization" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text,
	"default" boolean DEFAULT false NOT NULL,
	"banner_enabled" boolean DEFAULT false NOT NULL,
	"banner_text" text,
	"banner_color" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "project" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text,
	"default" boolean DEFAULT false NOT NULL,
	"color" text,
	"annual_employee_cost" integer DEFAULT 50000 NOT NULL,
	"business_year_hours" integer DEFAULT 2080 NOT NULL,
	"owner_email" text,
	"owner_conversation" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("description"::text, '')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "user_organization" (
	"user_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"role" text DEFAULT 'Member' NOT NULL,
	"default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_organization_user_id_organization_id_pk" PRIMARY KEY("user_id","organization_id")
);
--> statement-breakpoint
CREATE TABLE "user_project" (
	"user_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"role" text,
	"default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_project_user_id_project_id_pk" PRIMARY KEY("user_id","project_id")
);
--> statement-breakpoint
ALTER TABLE "project" ADD CONSTRAINT "project_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "user_organization" ADD CONSTRAINT "user_organization_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "user_organization" ADD CONSTRAINT "user_organization_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "user_project" ADD CONSTRAINT "user_project_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "user_project" ADD CONSTRAINT "user_project_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "user_project" ADD CONSTRAINT "user_project_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "app_user_email_key" ON "app_user" USING btree ("email");
--> statement-breakpoint
CREATE INDEX "app_user_search_idx" ON "app_user" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "organization_name_key" ON "organization" USING btree ("name");
--> statement-breakpoint
CREATE UNIQUE INDEX "organization_slug_key" ON "organization" USING btree ("slug");
--> statement-breakpoint
CREATE INDEX "organization_search_idx" ON "organization" USING gin ("search_vector");
--> statement-breakpoint
CREATE UNIQUE INDEX "project_organization_name_key" ON "project" USING btree ("organization_id","name");
--> statement-breakpoint
CREATE INDEX "project_search_idx" ON "project" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "user_organization_org_idx" ON "user_organization" USING btree ("organization_id");
--> statement-breakpoint
CREATE INDEX "user_project_project_idx" ON "user_project" USING btree ("project_id");
