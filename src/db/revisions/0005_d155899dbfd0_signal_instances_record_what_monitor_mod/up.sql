ALTER TABLE "signal_instance" ADD COLUMN "filter_monitor" jsonb;
