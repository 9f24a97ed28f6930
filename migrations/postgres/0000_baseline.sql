CREATE TABLE "ai_quiet_tickets" (
	"ticket_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_settings" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"fast_model" text DEFAULT '' NOT NULL,
	"widget_model" text DEFAULT '' NOT NULL,
	"widget_cap_micros" bigint DEFAULT 25000000 NOT NULL,
	"own_key_sealed" text,
	"own_key_failed_at" text,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_usage" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"feature" text NOT NULL,
	"model" text NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"usd_micros" integer DEFAULT 0 NOT NULL,
	"user_id" text,
	"source" text NOT NULL,
	"ok" boolean DEFAULT false NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"last_used_at" text,
	"expires_at" text,
	"created_by" text,
	"revoked_at" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "assignment_pointers" (
	"workspace_id" text NOT NULL,
	"scope" text NOT NULL,
	"last_user_id" text NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "assignment_pointers_workspace_id_scope_pk" PRIMARY KEY("workspace_id","scope")
);
--> statement-breakpoint
CREATE TABLE "assignment_settings" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"rules" jsonb NOT NULL,
	"auto_away_minutes" integer DEFAULT 0 NOT NULL,
	"away_announced_until" text,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "assistant_actions" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"session_id" text NOT NULL,
	"auth_session_id" text,
	"call_id" text NOT NULL,
	"step_id" text NOT NULL,
	"tool" text NOT NULL,
	"args" jsonb NOT NULL,
	"preview" jsonb NOT NULL,
	"token_hash" text NOT NULL,
	"status" text NOT NULL,
	"expires_at" text NOT NULL,
	"decided_at" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "assistant_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"title" text NOT NULL,
	"transcript" jsonb NOT NULL,
	"messages" jsonb NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "attachments" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"message_id" text,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"inline" boolean DEFAULT false NOT NULL,
	"content_id" text,
	"storage_key" text NOT NULL,
	"uploaded_by" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_logs" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"actor_type" text NOT NULL,
	"actor_user_id" text,
	"actor_api_key_id" text,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text,
	"data" jsonb NOT NULL,
	"ip" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "automation_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"automation_id" text NOT NULL,
	"event_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"outcome" text NOT NULL,
	"depth" integer NOT NULL,
	"notes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"matched" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "automation_time_marks" (
	"automation_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"acted_at" text NOT NULL,
	CONSTRAINT "automation_time_marks_automation_id_ticket_id_pk" PRIMARY KEY("automation_id","ticket_id")
);
--> statement-breakpoint
CREATE TABLE "automations" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"trigger" text NOT NULL,
	"conditions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"actions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"allow_customer_reply_on_ai_decision" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"run_count" integer DEFAULT 0 NOT NULL,
	"last_run_at" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "backup_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"trigger" text NOT NULL,
	"status" text NOT NULL,
	"file" text NOT NULL,
	"size_bytes" bigint,
	"file_count" integer,
	"error" text,
	"started_at" text NOT NULL,
	"finished_at" text,
	"pruned_at" text
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"domain" text,
	"notes" text DEFAULT '' NOT NULL,
	"custom" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"avatar_url" text,
	"avatar_source" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	"deleted_at" text
);
--> statement-breakpoint
CREATE TABLE "contact_emails" (
	"workspace_id" text NOT NULL,
	"email" text NOT NULL,
	"contact_id" text NOT NULL,
	"position" integer NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "contact_emails_workspace_id_email_pk" PRIMARY KEY("workspace_id","email")
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"email" text,
	"name" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"company_id" text,
	"external_id" text,
	"custom" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"blocked" boolean DEFAULT false NOT NULL,
	"avatar_url" text,
	"avatar_source" text,
	"locale" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	"deleted_at" text
);
--> statement-breakpoint
CREATE TABLE "csat_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"event_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"email" text NOT NULL,
	"expires_at" text NOT NULL,
	"sent_at" text,
	"score" integer,
	"comment" text,
	"rated_at" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "custom_fields" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"entity" text NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"required_on_solve" boolean DEFAULT false NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "field_values" (
	"workspace_id" text NOT NULL,
	"entity" text NOT NULL,
	"record_id" text NOT NULL,
	"field_id" text NOT NULL,
	"value_text" text,
	"value_num" double precision,
	"value_json" jsonb,
	CONSTRAINT "field_values_entity_record_id_field_id_pk" PRIMARY KEY("entity","record_id","field_id")
);
--> statement-breakpoint
CREATE TABLE "event_consumers" (
	"name" text PRIMARY KEY NOT NULL,
	"last_rowid" integer NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_seqs" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"last_seq" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"seq" integer NOT NULL,
	"type" text NOT NULL,
	"visibility" text NOT NULL,
	"private_team_id" text,
	"topics" jsonb NOT NULL,
	"data" jsonb NOT NULL,
	"occurred_at" text NOT NULL,
	"cause_consumer" text,
	"cause_depth" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"state" text NOT NULL,
	"status" integer,
	"content_type" text,
	"location" text,
	"body" text,
	"created_at" text NOT NULL,
	CONSTRAINT "idempotency_keys_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
CREATE TABLE "app_attest_challenges" (
	"challenge" text PRIMARY KEY NOT NULL,
	"expires_at" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_attest_keys" (
	"key_id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"public_key" text NOT NULL,
	"receipt" text NOT NULL,
	"environment" text NOT NULL,
	"counter" integer DEFAULT 0 NOT NULL,
	"last_used_at" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"client" text NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"refresh_hash" text NOT NULL,
	"authenticated_at" text NOT NULL,
	"mfa_verified" boolean DEFAULT false NOT NULL,
	"user_agent" text,
	"ip" text,
	"created_at" text NOT NULL,
	"last_used_at" text NOT NULL,
	"expires_at" text NOT NULL,
	"revoked_at" text,
	"revoked_reason" text,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text,
	"avatar_url" text,
	"avatar_source" text,
	"mfa_secret_sealed" text,
	"mfa_enabled" boolean DEFAULT false NOT NULL,
	"mfa_recovery_hashes" text,
	"mfa_last_step" integer,
	"locale" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "passkey_challenges" (
	"challenge" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"user_id" text,
	"expires_at" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "passkeys" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"credential_id" text NOT NULL,
	"public_key" text NOT NULL,
	"counter" integer DEFAULT 0 NOT NULL,
	"transports" text,
	"name" text NOT NULL,
	"device_type" text NOT NULL,
	"backed_up" boolean DEFAULT false NOT NULL,
	"last_used_at" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_resets" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"requested_by" text NOT NULL,
	"requested_ip" text,
	"expires_at" text NOT NULL,
	"used_at" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_flows" (
	"state" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"verifier_sealed" text NOT NULL,
	"nonce" text NOT NULL,
	"client" text NOT NULL,
	"browser_hash" text,
	"native_challenge" text,
	"next" text,
	"user_id" text,
	"code_hash" text,
	"expires_at" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_identities" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" text NOT NULL,
	"email" text,
	"last_used_at" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_mappings" (
	"workspace_id" text NOT NULL,
	"source" text NOT NULL,
	"account" text NOT NULL,
	"kind" text NOT NULL,
	"source_id" text NOT NULL,
	"desk_id" text NOT NULL,
	"source_updated_at" text,
	"data" jsonb,
	CONSTRAINT "import_mappings_workspace_id_source_account_kind_source_id_pk" PRIMARY KEY("workspace_id","source","account","kind","source_id")
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"source" text NOT NULL,
	"account" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"phase" text DEFAULT 'queued' NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"total" integer,
	"counts" jsonb NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"options_sealed" text,
	"state" jsonb NOT NULL,
	"lease_until" text,
	"lease_holder" text,
	"created_by" text,
	"started_at" text,
	"finished_at" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_receipts" (
	"mailbox_id" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"workspace_id" text NOT NULL,
	"outcome" text NOT NULL,
	"ticket_id" text,
	"desk_message_id" text,
	"created_at" text NOT NULL,
	CONSTRAINT "inbound_receipts_mailbox_id_dedupe_key_pk" PRIMARY KEY("mailbox_id","dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"link_sealed" text,
	"invited_by" text,
	"expires_at" text NOT NULL,
	"accepted_at" text,
	"accepted_by" text,
	"revoked_at" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"workspace_id" text,
	"payload" jsonb NOT NULL,
	"state" text NOT NULL,
	"run_at" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"lease_until" text,
	"lease_owner" text,
	"lease_node" text,
	"lease_token" text,
	"unique_key" text,
	"last_error" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kb_article_translations" (
	"workspace_id" text NOT NULL,
	"article_id" text NOT NULL,
	"locale" text NOT NULL,
	"title" text NOT NULL,
	"body_html" text DEFAULT '' NOT NULL,
	"body_text" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"source_updated_at" text NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kb_articles" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"collection_id" text NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"body_html" text DEFAULT '' NOT NULL,
	"body_text" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"published_at" text,
	"created_by" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kb_collections" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "record_tags" (
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"record_id" text NOT NULL,
	"tag_id" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "record_tags_kind_record_id_tag_id_pk" PRIMARY KEY("kind","record_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "tag_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"color" text,
	"exclusive" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"color" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"group_id" text,
	"position" integer DEFAULT 0 NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"applies_to" jsonb NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "macros" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"shared" boolean DEFAULT false NOT NULL,
	"owner_id" text,
	"actions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"usage_count" integer DEFAULT 0 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mailbox_oauth_states" (
	"state" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"provider" text NOT NULL,
	"code_verifier" text NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"mailbox_id" text,
	"created_by" text,
	"expires_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mailboxes" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"inbound_kind" text NOT NULL,
	"outbound_kind" text NOT NULL,
	"forwarding_address" text,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"team_id" text,
	"signature_html" text DEFAULT '' NOT NULL,
	"auto_reply_enabled" boolean DEFAULT false NOT NULL,
	"auto_reply_subject" text DEFAULT '' NOT NULL,
	"auto_reply_html" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"last_error" text DEFAULT '' NOT NULL,
	"last_synced_at" text,
	"trusted_form_senders" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"password_sealed" text,
	"smtp_password_sealed" text,
	"oauth_sealed" text,
	"imap_uid_validity" text,
	"imap_last_uid" integer DEFAULT 0 NOT NULL,
	"sync_failures" integer DEFAULT 0 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "members" (
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"availability" text DEFAULT 'online' NOT NULL,
	"max_open_tickets" integer,
	"last_seen_at" text,
	"created_at" text NOT NULL,
	CONSTRAINT "members_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"email" text NOT NULL,
	"digest_sent_at" text,
	"updated_at" text NOT NULL,
	CONSTRAINT "notification_preferences_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"type" text NOT NULL,
	"ticket" jsonb,
	"data" jsonb NOT NULL,
	"read_at" text,
	"emailed_at" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "onboarding_dismissals" (
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"dismissed_at" text NOT NULL,
	CONSTRAINT "onboarding_dismissals_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "mail_conversations" (
	"workspace_id" text NOT NULL,
	"conversation_key" text NOT NULL,
	"ticket_id" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "mail_conversations_workspace_id_conversation_key_pk" PRIMARY KEY("workspace_id","conversation_key")
);
--> statement-breakpoint
CREATE TABLE "mail_message_ids" (
	"workspace_id" text NOT NULL,
	"message_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"desk_message_id" text,
	"direction" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "mail_message_ids_workspace_id_message_id_pk" PRIMARY KEY("workspace_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "picture_lookups" (
	"key" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"image_url" text,
	"failures" integer DEFAULT 0 NOT NULL,
	"checked_at" text NOT NULL,
	"retry_after" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portal_links" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" text NOT NULL,
	"used_at" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_replies" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"title" text NOT NULL,
	"shortcut" text,
	"shortcut_key" text,
	"body_html" text NOT NULL,
	"created_by" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "semantic_dirty" (
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"doc_id" text NOT NULL,
	"source_text" text,
	"version" integer DEFAULT 1 NOT NULL,
	"marked_at" text NOT NULL,
	CONSTRAINT "semantic_dirty_kind_doc_id_pk" PRIMARY KEY("kind","doc_id")
);
--> statement-breakpoint
CREATE TABLE "semantic_seqs" (
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"last_seq" integer NOT NULL,
	CONSTRAINT "semantic_seqs_workspace_id_kind_pk" PRIMARY KEY("workspace_id","kind")
);
--> statement-breakpoint
CREATE TABLE "semantic_state" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"model" text NOT NULL,
	"backfill_after" text DEFAULT '' NOT NULL,
	"backfilled_at" text
);
--> statement-breakpoint
CREATE TABLE "semantic_vectors" (
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"doc_id" text NOT NULL,
	"model" text NOT NULL,
	"vector" "bytea",
	"source_text" text,
	"seq" integer NOT NULL,
	"embedded_at" text NOT NULL,
	CONSTRAINT "semantic_vectors_kind_doc_id_pk" PRIMARY KEY("kind","doc_id")
);
--> statement-breakpoint
CREATE TABLE "business_hours" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"timezone" text NOT NULL,
	"schedule" jsonb NOT NULL,
	"holidays" jsonb NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sla_clocks" (
	"ticket_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"policy_id" text,
	"started_at" text NOT NULL,
	"solved" boolean DEFAULT false NOT NULL,
	"first_due_at" text,
	"resolution_due_at" text,
	"first_breached" boolean DEFAULT false NOT NULL,
	"resolution_breached" boolean DEFAULT false NOT NULL,
	"breached" boolean DEFAULT false NOT NULL,
	"next_due_at" text,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sla_policies" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"priority" text,
	"first_response_minutes" integer NOT NULL,
	"resolution_minutes" integer NOT NULL,
	"business_hours" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"position" integer NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_members" (
	"team_id" text NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "team_members_team_id_user_id_pk" PRIMARY KEY("team_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"private" boolean DEFAULT false NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_reads" (
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"seen_at" text NOT NULL,
	CONSTRAINT "ticket_reads_user_id_ticket_id_pk" PRIMARY KEY("user_id","ticket_id")
);
--> statement-breakpoint
CREATE TABLE "ticket_followers" (
	"ticket_id" text NOT NULL,
	"user_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "ticket_followers_ticket_id_user_id_pk" PRIMARY KEY("ticket_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"kind" text NOT NULL,
	"direction" text NOT NULL,
	"author_type" text NOT NULL,
	"author_user_id" text,
	"author_contact_id" text,
	"body_html" text NOT NULL,
	"body_text" text NOT NULL,
	"has_quoted" boolean DEFAULT false NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"from_email" text DEFAULT '' NOT NULL,
	"from_name" text DEFAULT '' NOT NULL,
	"to" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cc" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"bcc" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"delivery_status" text DEFAULT 'none' NOT NULL,
	"delivery_error" text DEFAULT '' NOT NULL,
	"delivery_via" text,
	"reply_to" text DEFAULT '' NOT NULL,
	"auth_failed" boolean DEFAULT false NOT NULL,
	"form_sender" text DEFAULT '' NOT NULL,
	"forward" boolean DEFAULT false NOT NULL,
	"email_message_id" text,
	"original_path" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activities" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"actor_type" text NOT NULL,
	"actor_user_id" text,
	"actor_automation" jsonb,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"number" integer NOT NULL,
	"subject" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"priority" text DEFAULT 'normal' NOT NULL,
	"severity" text,
	"channel" text DEFAULT 'api' NOT NULL,
	"mailbox_id" text,
	"contact_id" text,
	"assignee_id" text,
	"team_id" text,
	"spam" boolean DEFAULT false NOT NULL,
	"snoozed_until" text,
	"solved_at" text,
	"first_responded_at" text,
	"last_message_at" text NOT NULL,
	"last_customer_message_at" text,
	"last_message_preview" text DEFAULT '' NOT NULL,
	"message_count" integer DEFAULT 0 NOT NULL,
	"csat" jsonb,
	"custom" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sla" jsonb,
	"merged_into_id" text,
	"deleted_at" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	"priority_rank" integer GENERATED ALWAYS AS (CASE priority WHEN 'urgent' THEN 4 WHEN 'high' THEN 3 WHEN 'normal' THEN 2 ELSE 1 END) STORED,
	"severity_rank" integer GENERATED ALWAYS AS (CASE severity WHEN 'sev1' THEN 1 WHEN 'sev2' THEN 2 WHEN 'sev3' THEN 3 WHEN 'sev4' THEN 4 ELSE 5 END) STORED,
	"due_at" text GENERATED ALWAYS AS (coalesce(least(coalesce(CASE WHEN first_responded_at IS NULL THEN sla->>'first_response_due_at' END, sla->>'resolution_due_at'), coalesce(sla->>'resolution_due_at', CASE WHEN first_responded_at IS NULL THEN sla->>'first_response_due_at' END)), '9999')) STORED
);
--> statement-breakpoint
CREATE TABLE "triage_settings" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"auto_triage" boolean DEFAULT false NOT NULL,
	"fields" jsonb NOT NULL,
	"assign_after_triage" boolean DEFAULT false NOT NULL,
	"threshold" double precision NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "views" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text,
	"name" text NOT NULL,
	"shared" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"webhook_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"response_code" integer,
	"duration_ms" integer,
	"response_excerpt" text,
	"last_error" text,
	"next_attempt_at" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"events" jsonb NOT NULL,
	"team_ids" jsonb NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"secret_sealed" text NOT NULL,
	"failure_streak" integer DEFAULT 0 NOT NULL,
	"paused_until" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "widget_cap_notices" (
	"workspace_id" text NOT NULL,
	"month" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "widget_cap_notices_workspace_id_month_pk" PRIMARY KEY("workspace_id","month")
);
--> statement-breakpoint
CREATE TABLE "widget_handoff_mails" (
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"mailed_at" text NOT NULL,
	CONSTRAINT "widget_handoff_mails_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "widget_handoffs" (
	"workspace_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "widget_handoffs_workspace_id_ticket_id_pk" PRIMARY KEY("workspace_id","ticket_id")
);
--> statement-breakpoint
CREATE TABLE "chat_email_confirmations" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"sent_at" text NOT NULL,
	"expires_at" text NOT NULL,
	"confirmed_at" text
);
--> statement-breakpoint
CREATE TABLE "chat_reply_marks" (
	"ticket_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"seen_through" text,
	"mailed_through" text,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visitor_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"claimed_email" text,
	"page_url" text,
	"user_agent" text,
	"time_zone" text,
	"created_at" text NOT NULL,
	"last_seen_at" text NOT NULL,
	"expires_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "widget_settings" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"greeting" text NOT NULL,
	"require_email" boolean DEFAULT false NOT NULL,
	"allowed_origins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reply_mailbox_id" text,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "widget_uploads" (
	"attachment_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"widget_key" text NOT NULL,
	"widget_secret_sealed" text,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"avatar_url" text,
	"images" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"event_seq" integer DEFAULT 0 NOT NULL,
	"ticket_number_seq" integer DEFAULT 0 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	"deleted_at" text
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passkey_challenges" ADD CONSTRAINT "passkey_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passkeys" ADD CONSTRAINT "passkeys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_flows" ADD CONSTRAINT "sso_flows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_usage_ws_created_idx" ON "ai_usage" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_unique" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_workspace_idx" ON "api_keys" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "assistant_actions_session_idx" ON "assistant_actions" USING btree ("session_id","status");--> statement-breakpoint
CREATE INDEX "assistant_sessions_user_idx" ON "assistant_sessions" USING btree ("workspace_id","user_id","updated_at");--> statement-breakpoint
CREATE INDEX "attachments_message_idx" ON "attachments" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "attachments_unattached_idx" ON "attachments" USING btree ("created_at") WHERE message_id IS NULL;--> statement-breakpoint
CREATE INDEX "audit_logs_workspace_idx" ON "audit_logs" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "automation_runs_once_idx" ON "automation_runs" USING btree ("automation_id","event_id");--> statement-breakpoint
CREATE INDEX "automation_runs_automation_idx" ON "automation_runs" USING btree ("automation_id","created_at");--> statement-breakpoint
CREATE INDEX "automation_runs_created_idx" ON "automation_runs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "automation_time_marks_ticket_idx" ON "automation_time_marks" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "automations_workspace_trigger_idx" ON "automations" USING btree ("workspace_id","trigger","position");--> statement-breakpoint
CREATE INDEX "backup_runs_started_idx" ON "backup_runs" USING btree ("started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "companies_domain_unique" ON "companies" USING btree ("workspace_id","domain") WHERE domain IS NOT NULL AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "companies_workspace_idx" ON "companies" USING btree ("workspace_id","id");--> statement-breakpoint
CREATE INDEX "companies_name_idx" ON "companies" USING btree ("workspace_id","name");--> statement-breakpoint
CREATE INDEX "contact_emails_contact_idx" ON "contact_emails" USING btree ("contact_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_email_unique" ON "contacts" USING btree ("workspace_id","email") WHERE email IS NOT NULL AND deleted_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_external_id_unique" ON "contacts" USING btree ("workspace_id","external_id") WHERE external_id IS NOT NULL AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "contacts_workspace_idx" ON "contacts" USING btree ("workspace_id","id");--> statement-breakpoint
CREATE INDEX "contacts_company_idx" ON "contacts" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "contacts_name_idx" ON "contacts" USING btree ("workspace_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "csat_requests_token_unique" ON "csat_requests" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "csat_requests_event_unique" ON "csat_requests" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "csat_requests_ticket_idx" ON "csat_requests" USING btree ("workspace_id","ticket_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_fields_key_unique" ON "custom_fields" USING btree ("workspace_id","entity","key");--> statement-breakpoint
CREATE INDEX "field_values_text_nocase_idx" ON "field_values" USING btree ("field_id",lower("value_text"),"record_id");--> statement-breakpoint
CREATE INDEX "field_values_num_record_idx" ON "field_values" USING btree ("field_id","value_num","record_id");--> statement-breakpoint
CREATE UNIQUE INDEX "events_workspace_seq_unique" ON "events" USING btree ("workspace_id","seq");--> statement-breakpoint
CREATE INDEX "events_occurred_idx" ON "events" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "app_attest_challenges_expires_idx" ON "app_attest_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "passkey_challenges_expires_idx" ON "passkey_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "passkeys_credential_unique" ON "passkeys" USING btree ("credential_id");--> statement-breakpoint
CREATE INDEX "passkeys_user_idx" ON "passkeys" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "password_resets_token_unique" ON "password_resets" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "password_resets_user_idx" ON "password_resets" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_flows_code_unique" ON "sso_flows" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "sso_flows_expires_idx" ON "sso_flows" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_identities_subject_unique" ON "sso_identities" USING btree ("provider","subject");--> statement-breakpoint
CREATE INDEX "sso_identities_user_idx" ON "sso_identities" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "imports_workspace_created_idx" ON "imports" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "imports_account_idx" ON "imports" USING btree ("workspace_id","source","account","status");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_token_unique" ON "invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "invitations_workspace_idx" ON "invitations" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("state","run_at");--> statement-breakpoint
CREATE INDEX "jobs_kind_due_idx" ON "jobs" USING btree ("state","kind","run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_unique_key_active" ON "jobs" USING btree ("unique_key") WHERE state in ('queued','running');--> statement-breakpoint
CREATE UNIQUE INDEX "kb_article_translations_unique" ON "kb_article_translations" USING btree ("workspace_id","article_id","locale");--> statement-breakpoint
CREATE INDEX "kb_article_translations_locale_idx" ON "kb_article_translations" USING btree ("workspace_id","locale","status");--> statement-breakpoint
CREATE UNIQUE INDEX "kb_articles_slug_unique" ON "kb_articles" USING btree ("workspace_id","slug");--> statement-breakpoint
CREATE INDEX "kb_articles_collection_idx" ON "kb_articles" USING btree ("workspace_id","collection_id","position");--> statement-breakpoint
CREATE INDEX "kb_articles_position_idx" ON "kb_articles" USING btree ("workspace_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "kb_collections_slug_unique" ON "kb_collections" USING btree ("workspace_id","slug");--> statement-breakpoint
CREATE INDEX "kb_collections_position_idx" ON "kb_collections" USING btree ("workspace_id","position");--> statement-breakpoint
CREATE INDEX "record_tags_tag_idx" ON "record_tags" USING btree ("tag_id","kind");--> statement-breakpoint
CREATE INDEX "tag_groups_workspace_idx" ON "tag_groups" USING btree ("workspace_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_workspace_name_unique" ON "tags" USING btree ("workspace_id","name_key");--> statement-breakpoint
CREATE INDEX "tags_group_idx" ON "tags" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "macros_workspace_idx" ON "macros" USING btree ("workspace_id","position");--> statement-breakpoint
CREATE INDEX "mailboxes_workspace_idx" ON "mailboxes" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mailboxes_email_unique" ON "mailboxes" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "mailboxes_forwarding_unique" ON "mailboxes" USING btree ("forwarding_address");--> statement-breakpoint
CREATE INDEX "members_user_idx" ON "members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("workspace_id","user_id","id");--> statement-breakpoint
CREATE INDEX "mail_conversations_ticket_idx" ON "mail_conversations" USING btree ("workspace_id","ticket_id","created_at");--> statement-breakpoint
CREATE INDEX "mail_message_ids_desk_idx" ON "mail_message_ids" USING btree ("desk_message_id");--> statement-breakpoint
CREATE INDEX "mail_message_ids_ticket_idx" ON "mail_message_ids" USING btree ("workspace_id","ticket_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "portal_links_token_unique" ON "portal_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "portal_links_expiry_idx" ON "portal_links" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_replies_shortcut_unique" ON "saved_replies" USING btree ("workspace_id","shortcut_key") WHERE shortcut_key IS NOT NULL;--> statement-breakpoint
CREATE INDEX "saved_replies_workspace_idx" ON "saved_replies" USING btree ("workspace_id","title");--> statement-breakpoint
CREATE INDEX "semantic_dirty_ws_idx" ON "semantic_dirty" USING btree ("workspace_id","marked_at");--> statement-breakpoint
CREATE INDEX "semantic_vectors_ws_kind_seq_idx" ON "semantic_vectors" USING btree ("workspace_id","kind","seq");--> statement-breakpoint
CREATE INDEX "sla_clocks_next_due_idx" ON "sla_clocks" USING btree ("next_due_at") WHERE next_due_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "sla_clocks_workspace_idx" ON "sla_clocks" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "sla_policies_workspace_idx" ON "sla_policies" USING btree ("workspace_id","position","id");--> statement-breakpoint
CREATE INDEX "team_members_user_idx" ON "team_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "teams_workspace_idx" ON "teams" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "ticket_reads_member_idx" ON "ticket_reads" USING btree ("workspace_id","user_id","seen_at");--> statement-breakpoint
CREATE INDEX "ticket_followers_user_idx" ON "ticket_followers" USING btree ("workspace_id","user_id");--> statement-breakpoint
CREATE INDEX "messages_ticket_idx" ON "messages" USING btree ("ticket_id","created_at","id");--> statement-breakpoint
CREATE INDEX "messages_ws_email_message_id_idx" ON "messages" USING btree ("workspace_id","email_message_id");--> statement-breakpoint
CREATE INDEX "activities_ticket_idx" ON "activities" USING btree ("ticket_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_workspace_number_unique" ON "tickets" USING btree ("workspace_id","number");--> statement-breakpoint
CREATE INDEX "tickets_ws_last_message_idx" ON "tickets" USING btree ("workspace_id","last_message_at","id") WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX "tickets_ws_status_last_message_idx" ON "tickets" USING btree ("workspace_id","status","spam","last_message_at","id") WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX "tickets_ws_created_idx" ON "tickets" USING btree ("workspace_id","created_at","id") WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX "tickets_ws_assignee_last_message_idx" ON "tickets" USING btree ("workspace_id","assignee_id","last_message_at","id") WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX "tickets_ws_assignee_status_idx" ON "tickets" USING btree ("workspace_id","assignee_id","status","last_message_at") WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX "tickets_ws_team_status_idx" ON "tickets" USING btree ("workspace_id","team_id","status","last_message_at") WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX "tickets_ws_contact_idx" ON "tickets" USING btree ("workspace_id","contact_id","last_message_at");--> statement-breakpoint
CREATE INDEX "tickets_ws_mailbox_idx" ON "tickets" USING btree ("workspace_id","mailbox_id","last_message_at") WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX "tickets_ws_priority_idx" ON "tickets" USING btree ("workspace_id","priority_rank","id") WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX "tickets_ws_severity_idx" ON "tickets" USING btree ("workspace_id","severity_rank","id") WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX "tickets_ws_due_idx" ON "tickets" USING btree ("workspace_id","due_at","id") WHERE deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX "tickets_ws_solved_idx" ON "tickets" USING btree ("workspace_id","solved_at") WHERE solved_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "tickets_ws_autoclose_idx" ON "tickets" USING btree ("workspace_id","solved_at") WHERE status = 'solved' AND deleted_at IS NULL AND merged_into_id IS NULL;--> statement-breakpoint
CREATE INDEX "tickets_snoozed_idx" ON "tickets" USING btree ("snoozed_until") WHERE snoozed_until IS NOT NULL;--> statement-breakpoint
CREATE INDEX "views_workspace_idx" ON "views" USING btree ("workspace_id","position");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_idx" ON "webhook_deliveries" USING btree ("webhook_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("webhook_id","next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "webhooks_workspace_idx" ON "webhooks" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_email_confirmations_token_unique" ON "chat_email_confirmations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "chat_email_confirmations_email_idx" ON "chat_email_confirmations" USING btree ("workspace_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "visitor_sessions_token_unique" ON "visitor_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "visitor_sessions_contact_idx" ON "visitor_sessions" USING btree ("workspace_id","contact_id");--> statement-breakpoint
CREATE INDEX "widget_uploads_contact_idx" ON "widget_uploads" USING btree ("workspace_id","contact_id");--> statement-breakpoint
CREATE UNIQUE INDEX "workspaces_slug_unique" ON "workspaces" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "workspaces_widget_key_unique" ON "workspaces" USING btree ("widget_key");