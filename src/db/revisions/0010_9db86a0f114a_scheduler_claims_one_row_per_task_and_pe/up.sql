CREATE TABLE "scheduled_run" (
	"task" text NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"node" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"outcome" text,
	"error" text,
	CONSTRAINT "scheduled_run_task_slot_pk" PRIMARY KEY("task","slot")
);
