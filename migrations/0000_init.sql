CREATE TABLE `worlds` (
	`id` text PRIMARY KEY NOT NULL,
	`seed_name` text NOT NULL,
	`seed_hash` text NOT NULL,
	`objects` integer NOT NULL,
	`created_at` integer NOT NULL,
	`deleted_at` integer,
	`run_id` text
);
