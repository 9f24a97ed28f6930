DROP INDEX `field_values_text_idx`;--> statement-breakpoint
DROP INDEX `field_values_num_idx`;--> statement-breakpoint
CREATE INDEX `field_values_text_nocase_idx` ON `field_values` (`field_id`,"value_text" COLLATE NOCASE,`record_id`);--> statement-breakpoint
CREATE INDEX `field_values_num_record_idx` ON `field_values` (`field_id`,`value_num`,`record_id`);