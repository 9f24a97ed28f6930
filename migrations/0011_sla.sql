CREATE TABLE `business_hours` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`timezone` text NOT NULL,
	`schedule` text NOT NULL,
	`holidays` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sla_clocks` (
	`ticket_id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`policy_id` text,
	`started_at` text NOT NULL,
	`solved` integer DEFAULT false NOT NULL,
	`first_due_at` text,
	`resolution_due_at` text,
	`first_breached` integer DEFAULT false NOT NULL,
	`resolution_breached` integer DEFAULT false NOT NULL,
	`breached` integer DEFAULT false NOT NULL,
	`next_due_at` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sla_clocks_next_due_idx` ON `sla_clocks` (`next_due_at`) WHERE next_due_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `sla_clocks_workspace_idx` ON `sla_clocks` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `sla_policies` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`priority` text,
	`first_response_minutes` integer NOT NULL,
	`resolution_minutes` integer NOT NULL,
	`business_hours` integer DEFAULT false NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`position` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sla_policies_workspace_idx` ON `sla_policies` (`workspace_id`,`position`,`id`);