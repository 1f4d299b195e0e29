ALTER TABLE `episodes` ADD `seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `episodes` ADD `claim` text;--> statement-breakpoint
ALTER TABLE `episodes` ADD `passed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `episodes` ADD `graded` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `episodes` ADD `note` text;--> statement-breakpoint
CREATE INDEX `episodes_by_seq` ON `episodes` (`run_id`,`seq`);--> statement-breakpoint
ALTER TABLE `runs` ADD `origin` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `plan_json` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `runs` ADD `error` text;--> statement-breakpoint
CREATE INDEX `runs_by_created` ON `runs` (`created_at`);