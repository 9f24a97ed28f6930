DROP INDEX `semantic_vectors_ws_seq_idx`;--> statement-breakpoint
CREATE INDEX `semantic_vectors_ws_kind_seq_idx` ON `semantic_vectors` (`workspace_id`,`kind`,`seq`);