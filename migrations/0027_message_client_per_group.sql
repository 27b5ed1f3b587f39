DROP INDEX `messages_author_client_uq`;--> statement-breakpoint
CREATE UNIQUE INDEX `messages_group_author_client_uq` ON `messages` (`group_id`,`author_id`,`client_id`);