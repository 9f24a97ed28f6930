CREATE TABLE `automation_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`automation_id` text NOT NULL,
	`event_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`outcome` text NOT NULL,
	`depth` integer NOT NULL,
	`notes` text DEFAULT '[]' NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `automation_runs_once_idx` ON `automation_runs` (`automation_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `automation_runs_automation_idx` ON `automation_runs` (`automation_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `automation_runs_created_idx` ON `automation_runs` (`created_at`);--> statement-breakpoint
CREATE TABLE `automations` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`trigger` text NOT NULL,
	`conditions` text DEFAULT '[]' NOT NULL,
	`actions` text DEFAULT '[]' NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`run_count` integer DEFAULT 0 NOT NULL,
	`last_run_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `automations_workspace_trigger_idx` ON `automations` (`workspace_id`,`trigger`,`position`);--> statement-breakpoint
ALTER TABLE `activities` ADD `actor_automation` text;