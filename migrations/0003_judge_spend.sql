CREATE TABLE `judge_spend` (
	`run_id` text PRIMARY KEY NOT NULL,
	`limit_micros` integer NOT NULL,
	`spent_micros` integer DEFAULT 0 NOT NULL,
	`reserved_micros` integer DEFAULT 0 NOT NULL
);
