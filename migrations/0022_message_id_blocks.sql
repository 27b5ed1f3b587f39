CREATE TABLE `message_id_blocks` (
	`start` integer PRIMARY KEY NOT NULL,
	`end` integer NOT NULL,
	`group_id` text NOT NULL,
	`reserved_at` integer NOT NULL,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
