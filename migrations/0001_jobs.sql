CREATE TABLE `attachments` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`message_id` text,
	`filename` text NOT NULL,
	`content_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`inline` integer DEFAULT false NOT NULL,
	`content_id` text,
	`storage_key` text NOT NULL,
	`uploaded_by` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `attachments_message_idx` ON `attachments` (`message_id`);--> statement-breakpoint
CREATE INDEX `attachments_unattached_idx` ON `attachments` (`created_at`) WHERE message_id IS NULL;--> statement-breakpoint
CREATE TABLE `companies` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`domain` text,
	`notes` text DEFAULT '' NOT NULL,
	`custom` text DEFAULT '{}' NOT NULL,
	`avatar_url` text,
	`avatar_source` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `companies_domain_unique` ON `companies` (`workspace_id`,`domain`) WHERE domain IS NOT NULL AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `companies_workspace_idx` ON `companies` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `companies_name_idx` ON `companies` (`workspace_id`,`name`);--> statement-breakpoint
CREATE TABLE `contacts` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`email` text,
	`name` text DEFAULT '' NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`notes` text DEFAULT '' NOT NULL,
	`company_id` text,
	`external_id` text,
	`custom` text DEFAULT '{}' NOT NULL,
	`blocked` integer DEFAULT false NOT NULL,
	`avatar_url` text,
	`avatar_source` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_email_unique` ON `contacts` (`workspace_id`,`email`) WHERE email IS NOT NULL AND deleted_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_external_id_unique` ON `contacts` (`workspace_id`,`external_id`) WHERE external_id IS NOT NULL AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `contacts_workspace_idx` ON `contacts` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `contacts_company_idx` ON `contacts` (`company_id`);--> statement-breakpoint
CREATE INDEX `contacts_name_idx` ON `contacts` (`workspace_id`,`name`);--> statement-breakpoint
CREATE TABLE `custom_fields` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`entity` text NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`options` text DEFAULT '[]' NOT NULL,
	`required_on_solve` integer DEFAULT false NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`archived` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `custom_fields_key_unique` ON `custom_fields` (`workspace_id`,`entity`,`key`);--> statement-breakpoint
CREATE TABLE `field_values` (
	`workspace_id` text NOT NULL,
	`entity` text NOT NULL,
	`record_id` text NOT NULL,
	`field_id` text NOT NULL,
	`value_text` text,
	`value_num` real,
	`value_json` text,
	PRIMARY KEY(`entity`, `record_id`, `field_id`)
);
--> statement-breakpoint
CREATE INDEX `field_values_text_idx` ON `field_values` (`field_id`,`value_text`);--> statement-breakpoint
CREATE INDEX `field_values_num_idx` ON `field_values` (`field_id`,`value_num`);--> statement-breakpoint
CREATE TABLE `inbound_receipts` (
	`mailbox_id` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`workspace_id` text NOT NULL,
	`outcome` text NOT NULL,
	`ticket_id` text,
	`desk_message_id` text,
	`created_at` text NOT NULL,
	PRIMARY KEY(`mailbox_id`, `dedupe_key`)
);
--> statement-breakpoint
CREATE TABLE `mail_message_ids` (
	`workspace_id` text NOT NULL,
	`message_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`desk_message_id` text,
	`direction` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`workspace_id`, `message_id`)
);
--> statement-breakpoint
CREATE INDEX `mail_message_ids_desk_idx` ON `mail_message_ids` (`desk_message_id`);--> statement-breakpoint
CREATE TABLE `invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`token_hash` text NOT NULL,
	`invited_by` text,
	`expires_at` text NOT NULL,
	`accepted_at` text,
	`accepted_by` text,
	`revoked_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_token_unique` ON `invitations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `invitations_workspace_idx` ON `invitations` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `record_tags` (
	`workspace_id` text NOT NULL,
	`kind` text NOT NULL,
	`record_id` text NOT NULL,
	`tag_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`kind`, `record_id`, `tag_id`)
);
--> statement-breakpoint
CREATE INDEX `record_tags_tag_idx` ON `record_tags` (`tag_id`,`kind`);--> statement-breakpoint
CREATE TABLE `tag_groups` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`color` text,
	`exclusive` integer DEFAULT false NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tag_groups_workspace_idx` ON `tag_groups` (`workspace_id`,`position`);--> statement-breakpoint
CREATE TABLE `tags` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`color` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`group_id` text,
	`position` integer DEFAULT 0 NOT NULL,
	`archived` integer DEFAULT false NOT NULL,
	`applies_to` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tags_workspace_name_unique` ON `tags` (`workspace_id`,`name_key`);--> statement-breakpoint
CREATE INDEX `tags_group_idx` ON `tags` (`group_id`);--> statement-breakpoint
CREATE TABLE `mailbox_oauth_states` (
	`state` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`provider` text NOT NULL,
	`code_verifier` text NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`mailbox_id` text,
	`created_by` text,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `mailboxes` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`display_name` text DEFAULT '' NOT NULL,
	`inbound_kind` text NOT NULL,
	`outbound_kind` text NOT NULL,
	`forwarding_address` text,
	`config` text DEFAULT '{}' NOT NULL,
	`team_id` text,
	`signature_html` text DEFAULT '' NOT NULL,
	`auto_reply_enabled` integer DEFAULT false NOT NULL,
	`auto_reply_subject` text DEFAULT '' NOT NULL,
	`auto_reply_html` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`last_error` text DEFAULT '' NOT NULL,
	`last_synced_at` text,
	`trusted_form_senders` text DEFAULT '[]' NOT NULL,
	`password_sealed` text,
	`smtp_password_sealed` text,
	`oauth_sealed` text,
	`imap_uid_validity` text,
	`imap_last_uid` integer DEFAULT 0 NOT NULL,
	`sync_failures` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mailboxes_workspace_idx` ON `mailboxes` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `mailboxes_email_unique` ON `mailboxes` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `mailboxes_forwarding_unique` ON `mailboxes` (`forwarding_address`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`kind` text NOT NULL,
	`direction` text NOT NULL,
	`author_type` text NOT NULL,
	`author_user_id` text,
	`author_contact_id` text,
	`body_html` text NOT NULL,
	`body_text` text NOT NULL,
	`has_quoted` integer DEFAULT false NOT NULL,
	`subject` text DEFAULT '' NOT NULL,
	`from_email` text DEFAULT '' NOT NULL,
	`from_name` text DEFAULT '' NOT NULL,
	`to` text DEFAULT '[]' NOT NULL,
	`cc` text DEFAULT '[]' NOT NULL,
	`bcc` text DEFAULT '[]' NOT NULL,
	`delivery_status` text DEFAULT 'none' NOT NULL,
	`delivery_error` text DEFAULT '' NOT NULL,
	`reply_to` text DEFAULT '' NOT NULL,
	`auth_failed` integer DEFAULT false NOT NULL,
	`form_sender` text DEFAULT '' NOT NULL,
	`email_message_id` text,
	`original_path` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `messages_ticket_idx` ON `messages` (`ticket_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `messages_ws_email_message_id_idx` ON `messages` (`workspace_id`,`email_message_id`);--> statement-breakpoint
CREATE TABLE `saved_replies` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`title` text NOT NULL,
	`shortcut` text,
	`shortcut_key` text,
	`body_html` text NOT NULL,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `saved_replies_shortcut_unique` ON `saved_replies` (`workspace_id`,`shortcut_key`) WHERE shortcut_key IS NOT NULL;--> statement-breakpoint
CREATE INDEX `saved_replies_workspace_idx` ON `saved_replies` (`workspace_id`,`title`);--> statement-breakpoint
CREATE TABLE `activities` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`type` text NOT NULL,
	`data` text DEFAULT '{}' NOT NULL,
	`actor_type` text NOT NULL,
	`actor_user_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `activities_ticket_idx` ON `activities` (`ticket_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `tickets` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`number` integer NOT NULL,
	`subject` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`priority` text DEFAULT 'normal' NOT NULL,
	`severity` text,
	`channel` text DEFAULT 'api' NOT NULL,
	`mailbox_id` text,
	`contact_id` text,
	`assignee_id` text,
	`team_id` text,
	`spam` integer DEFAULT false NOT NULL,
	`snoozed_until` text,
	`solved_at` text,
	`first_responded_at` text,
	`last_message_at` text NOT NULL,
	`last_customer_message_at` text,
	`last_message_preview` text DEFAULT '' NOT NULL,
	`message_count` integer DEFAULT 0 NOT NULL,
	`csat` text,
	`custom` text DEFAULT '{}' NOT NULL,
	`sla` text,
	`merged_into_id` text,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`priority_rank` integer GENERATED ALWAYS AS (CASE priority WHEN 'urgent' THEN 4 WHEN 'high' THEN 3 WHEN 'normal' THEN 2 ELSE 1 END) VIRTUAL,
	`severity_rank` integer GENERATED ALWAYS AS (CASE severity WHEN 'sev1' THEN 1 WHEN 'sev2' THEN 2 WHEN 'sev3' THEN 3 WHEN 'sev4' THEN 4 ELSE 5 END) VIRTUAL,
	`due_at` text GENERATED ALWAYS AS (coalesce(min(coalesce(CASE WHEN first_responded_at IS NULL THEN json_extract(sla, '$.first_response_due_at') END, json_extract(sla, '$.resolution_due_at')), coalesce(json_extract(sla, '$.resolution_due_at'), CASE WHEN first_responded_at IS NULL THEN json_extract(sla, '$.first_response_due_at') END)), '9999')) VIRTUAL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tickets_workspace_number_unique` ON `tickets` (`workspace_id`,`number`);--> statement-breakpoint
CREATE INDEX `tickets_ws_last_message_idx` ON `tickets` (`workspace_id`,`last_message_at`,`id`) WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX `tickets_ws_status_last_message_idx` ON `tickets` (`workspace_id`,`status`,`last_message_at`,`id`) WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX `tickets_ws_created_idx` ON `tickets` (`workspace_id`,`created_at`,`id`) WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX `tickets_ws_assignee_status_idx` ON `tickets` (`workspace_id`,`assignee_id`,`status`,`last_message_at`) WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX `tickets_ws_team_status_idx` ON `tickets` (`workspace_id`,`team_id`,`status`,`last_message_at`) WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX `tickets_ws_contact_idx` ON `tickets` (`workspace_id`,`contact_id`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `tickets_ws_mailbox_idx` ON `tickets` (`workspace_id`,`mailbox_id`,`last_message_at`) WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX `tickets_ws_priority_idx` ON `tickets` (`workspace_id`,`priority_rank`,`id`) WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX `tickets_ws_severity_idx` ON `tickets` (`workspace_id`,`severity_rank`,`id`) WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX `tickets_ws_due_idx` ON `tickets` (`workspace_id`,`due_at`,`id`) WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX `tickets_ws_counts_idx` ON `tickets` (`workspace_id`,`status`,`spam`,`assignee_id`) WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX `tickets_ws_solved_idx` ON `tickets` (`workspace_id`,`solved_at`) WHERE solved_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `tickets_snoozed_idx` ON `tickets` (`snoozed_until`) WHERE snoozed_until IS NOT NULL;--> statement-breakpoint
CREATE TABLE `views` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`user_id` text,
	`name` text NOT NULL,
	`shared` integer DEFAULT false NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`filters` text DEFAULT '{}' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `views_workspace_idx` ON `views` (`workspace_id`,`position`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`webhook_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`response_code` integer,
	`duration_ms` integer,
	`response_excerpt` text,
	`last_error` text,
	`next_attempt_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_idx` ON `webhook_deliveries` (`webhook_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event_idx` ON `webhook_deliveries` (`event_id`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`url` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`events` text NOT NULL,
	`team_ids` text NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`secret_sealed` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhooks_workspace_idx` ON `webhooks` (`workspace_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `mfa_last_step` integer;--> statement-breakpoint
CREATE INDEX `jobs_kind_due_idx` ON `jobs` (`state`,`kind`,`run_at`);