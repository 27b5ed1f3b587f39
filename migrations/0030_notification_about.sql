ALTER TABLE `notifications` ADD `about` text;--> statement-breakpoint
CREATE INDEX `notifications_about_idx` ON `notifications` (`about`);