CREATE TABLE `ai_quiet_tickets` (
	`ticket_id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `automation_time_marks` (
	`automation_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`acted_at` text NOT NULL,
	PRIMARY KEY(`automation_id`, `ticket_id`)
);
--> statement-breakpoint
CREATE INDEX `automation_time_marks_ticket_idx` ON `automation_time_marks` (`ticket_id`);--> statement-breakpoint
CREATE TABLE `contact_emails` (
	`workspace_id` text NOT NULL,
	`email` text NOT NULL,
	`contact_id` text NOT NULL,
	`position` integer NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`workspace_id`, `email`)
);
--> statement-breakpoint
CREATE INDEX `contact_emails_contact_idx` ON `contact_emails` (`contact_id`,`position`);--> statement-breakpoint
CREATE TABLE `import_mappings` (
	`workspace_id` text NOT NULL,
	`source` text NOT NULL,
	`account` text NOT NULL,
	`kind` text NOT NULL,
	`source_id` text NOT NULL,
	`desk_id` text NOT NULL,
	`source_updated_at` text,
	`data` text,
	PRIMARY KEY(`workspace_id`, `source`, `account`, `kind`, `source_id`)
);
--> statement-breakpoint
CREATE TABLE `imports` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`source` text NOT NULL,
	`account` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`phase` text DEFAULT 'queued' NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	`total` integer,
	`counts` text NOT NULL,
	`errors` text DEFAULT '[]' NOT NULL,
	`options_sealed` text,
	`state` text NOT NULL,
	`lease_until` text,
	`lease_holder` text,
	`created_by` text,
	`started_at` text,
	`finished_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `imports_workspace_created_idx` ON `imports` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `imports_account_idx` ON `imports` (`workspace_id`,`source`,`account`,`status`);--> statement-breakpoint
CREATE TABLE `macros` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`shared` integer DEFAULT false NOT NULL,
	`owner_id` text,
	`actions` text DEFAULT '[]' NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`usage_count` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `macros_workspace_idx` ON `macros` (`workspace_id`,`position`);--> statement-breakpoint
CREATE TABLE `mail_conversations` (
	`workspace_id` text NOT NULL,
	`conversation_key` text NOT NULL,
	`ticket_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`workspace_id`, `conversation_key`)
);
--> statement-breakpoint
CREATE INDEX `mail_conversations_ticket_idx` ON `mail_conversations` (`workspace_id`,`ticket_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `portal_links` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`email` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `portal_links_token_unique` ON `portal_links` (`token_hash`);--> statement-breakpoint
CREATE INDEX `portal_links_expiry_idx` ON `portal_links` (`expires_at`);--> statement-breakpoint
CREATE TABLE `ticket_reads` (
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`seen_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `ticket_id`)
);
--> statement-breakpoint
CREATE INDEX `ticket_reads_member_idx` ON `ticket_reads` (`workspace_id`,`user_id`,`seen_at`);--> statement-breakpoint
CREATE TABLE `ticket_followers` (
	`ticket_id` text NOT NULL,
	`user_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`ticket_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `ticket_followers_user_idx` ON `ticket_followers` (`workspace_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `widget_handoff_mails` (
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`mailed_at` text NOT NULL,
	PRIMARY KEY(`workspace_id`, `user_id`)
);
--> statement-breakpoint
CREATE TABLE `chat_email_confirmations` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`email` text NOT NULL,
	`token_hash` text NOT NULL,
	`sent_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`confirmed_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chat_email_confirmations_token_unique` ON `chat_email_confirmations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `chat_email_confirmations_email_idx` ON `chat_email_confirmations` (`workspace_id`,`email`);--> statement-breakpoint
CREATE TABLE `chat_reply_marks` (
	`ticket_id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`seen_through` text,
	`mailed_through` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_ai_settings` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`model` text DEFAULT '' NOT NULL,
	`fast_model` text DEFAULT '' NOT NULL,
	`widget_model` text DEFAULT '' NOT NULL,
	`widget_cap_micros` integer DEFAULT 25000000 NOT NULL,
	`own_key_sealed` text,
	`own_key_failed_at` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_ai_settings`("workspace_id", "model", "fast_model", "widget_model", "widget_cap_micros", "own_key_sealed", "own_key_failed_at", "updated_at") SELECT "workspace_id", "model", "fast_model", "widget_model", "widget_cap_micros", "own_key_sealed", "own_key_failed_at", "updated_at" FROM `ai_settings`;--> statement-breakpoint
DROP TABLE `ai_settings`;--> statement-breakpoint
ALTER TABLE `__new_ai_settings` RENAME TO `ai_settings`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
ALTER TABLE `automation_runs` ADD `matched` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `automations` ADD `allow_customer_reply_on_ai_decision` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `invitations` ADD `link_sealed` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `forward` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `failure_streak` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `paused_until` text;--> statement-breakpoint
ALTER TABLE `visitor_sessions` ADD `page_url` text;--> statement-breakpoint
ALTER TABLE `visitor_sessions` ADD `user_agent` text;--> statement-breakpoint
ALTER TABLE `visitor_sessions` ADD `time_zone` text;--> statement-breakpoint
ALTER TABLE `widget_settings` ADD `reply_mailbox_id` text;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`webhook_id`,`next_attempt_at`) WHERE status = 'pending';