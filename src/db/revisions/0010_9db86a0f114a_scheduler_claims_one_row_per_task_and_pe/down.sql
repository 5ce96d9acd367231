DROP TABLE "scheduled_run" CASCADE;
