CREATE TABLE `backup_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`trigger` text NOT NULL,
	`status` text NOT NULL,
	`file` text NOT NULL,
	`size_bytes` integer,
	`file_count` integer,
	`error` text,
	`started_at` text NOT NULL,
	`finished_at` text,
	`pruned_at` text
);
--> statement-breakpoint
CREATE INDEX `backup_runs_started_idx` ON `backup_runs` (`started_at`);