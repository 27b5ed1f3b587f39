ALTER TABLE `memberships` ADD `joined_at` integer;--> statement-breakpoint
-- Members before this column: when they were let in (their decision), or when they asked for those whose last decision
-- was a removal (that decision is not when they joined). Never later than they joined, so no held work is excused.
UPDATE `memberships` SET `joined_at` = coalesce(`decided_at`, `created_at`) WHERE `status` IN ('approved', 'special', 'left');--> statement-breakpoint
UPDATE `memberships` SET `joined_at` = `created_at` WHERE `status` = 'removed';
