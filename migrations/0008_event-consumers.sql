CREATE TABLE `event_consumers` (
	`name` text PRIMARY KEY NOT NULL,
	`last_rowid` integer NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `events` ADD `cause_consumer` text;--> statement-breakpoint
ALTER TABLE `events` ADD `cause_depth` integer DEFAULT 0 NOT NULL;