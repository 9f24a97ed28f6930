CREATE TABLE `app_attest_challenges` (
	`challenge` text PRIMARY KEY NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `app_attest_challenges_expires_idx` ON `app_attest_challenges` (`expires_at`);--> statement-breakpoint
CREATE TABLE `app_attest_keys` (
	`key_id` text PRIMARY KEY NOT NULL,
	`app_id` text NOT NULL,
	`public_key` text NOT NULL,
	`receipt` text NOT NULL,
	`environment` text NOT NULL,
	`counter` integer DEFAULT 0 NOT NULL,
	`last_used_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `passkey_challenges` (
	`challenge` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`user_id` text,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `passkey_challenges_expires_idx` ON `passkey_challenges` (`expires_at`);--> statement-breakpoint
CREATE TABLE `passkeys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`credential_id` text NOT NULL,
	`public_key` text NOT NULL,
	`counter` integer DEFAULT 0 NOT NULL,
	`transports` text,
	`name` text NOT NULL,
	`device_type` text NOT NULL,
	`backed_up` integer DEFAULT false NOT NULL,
	`last_used_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `passkeys_credential_unique` ON `passkeys` (`credential_id`);--> statement-breakpoint
CREATE INDEX `passkeys_user_idx` ON `passkeys` (`user_id`);--> statement-breakpoint
CREATE TABLE `picture_lookups` (
	`key` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`image_url` text,
	`failures` integer DEFAULT 0 NOT NULL,
	`checked_at` text NOT NULL,
	`retry_after` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sso_flows` (
	`state` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`verifier_sealed` text NOT NULL,
	`nonce` text NOT NULL,
	`client` text NOT NULL,
	`browser_hash` text,
	`native_challenge` text,
	`next` text,
	`user_id` text,
	`code_hash` text,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sso_flows_code_unique` ON `sso_flows` (`code_hash`);--> statement-breakpoint
CREATE INDEX `sso_flows_expires_idx` ON `sso_flows` (`expires_at`);--> statement-breakpoint
CREATE TABLE `sso_identities` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`subject` text NOT NULL,
	`user_id` text NOT NULL,
	`email` text,
	`last_used_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sso_identities_subject_unique` ON `sso_identities` (`provider`,`subject`);--> statement-breakpoint
CREATE INDEX `sso_identities_user_idx` ON `sso_identities` (`user_id`);