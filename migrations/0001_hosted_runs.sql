CREATE TABLE `deliveries` (
	`hook_id` text NOT NULL,
	`event_id` text NOT NULL,
	`run_id` text,
	`outcome` text NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`hook_id`, `event_id`)
);
--> statement-breakpoint
CREATE TABLE `episodes` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`repetition` integer NOT NULL,
	`task` integer NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`claimed_at` integer,
	`world_id` text,
	`result_json` text,
	`error` text,
	`trace_key` text,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `episodes_by_run` ON `episodes` (`run_id`,`status`);--> statement-breakpoint
CREATE TABLE `hooks` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`secret` text NOT NULL,
	`config_json` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `runs` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`mode` text NOT NULL,
	`source` text NOT NULL,
	`k` integer NOT NULL,
	`task_count` integer NOT NULL,
	`episodes_total` integer NOT NULL,
	`seed_key` text NOT NULL,
	`rubric_key` text NOT NULL,
	`tasks_file` text,
	`tasks_hash` text,
	`agent_url` text NOT NULL,
	`agent_secret` text NOT NULL,
	`concurrency` integer NOT NULL,
	`timeout_s` integer NOT NULL,
	`created_at` integer NOT NULL,
	`finished_at` integer,
	`result_json` text,
	`exit_code` integer
);
--> statement-breakpoint
CREATE INDEX `runs_by_status` ON `runs` (`status`,`created_at`);