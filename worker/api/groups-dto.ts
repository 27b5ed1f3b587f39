/** Response schemas of the group management, membership, student and upload endpoints (for the OpenAPI document). */
import { z } from "@hono/zod-openapi";
import { MEMBERSHIP_STATUS_VALUES } from "../../app/lib/schemas";
import { courseContentDto, groupDto } from "./dto";

const membershipStatus = z.enum(MEMBERSHIP_STATUS_VALUES);

// Built from the fields of `groupDto` (not `.extend()` of the registered schema) so the document lists every
// property in one object instead of an allOf.
const catalogueFields = {
  ...groupDto.shape,
  membershipStatus: membershipStatus
    .nullable()
    .optional()
    .openapi({ description: "Only when the caller is signed in: their status in this group (null: never asked to join)" }),
};

export const catalogueGroupDto = z.object(catalogueFields).openapi("CatalogueGroup");

export const catalogueGroupDetailDto = z.object({ ...catalogueFields, content: z.array(courseContentDto) }).openapi("CatalogueGroupDetail");

export const managedGroupDto = z
  .object({
    ...groupDto.shape,
    instructorId: z.string().nullable(),
    memberCount: z.number().int().openapi({ description: "Approved and special members (the seats taken)" }),
    pendingCount: z.number().int(),
    createdAt: z.string(),
  })
  .openapi("ManagedGroup");

export const managedGroupDetailDto = z.object({ ...managedGroupDto.shape, content: z.array(courseContentDto) }).openapi("ManagedGroupDetail");

export const managedGroupPageDto = z
  .object({ groups: z.array(managedGroupDto), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() })
  .openapi("ManagedGroupPage");

export const instructorDto = z.object({ _id: z.string(), name: z.string(), email: z.string() }).openapi("Instructor");

const groupRef = z.object({ _id: z.string(), title: z.string(), slug: z.string() });
const studentRef = z.object({ _id: z.string(), name: z.string(), email: z.string(), phone_number: z.string().nullable(), slug: z.string() });

export const membershipRequestDto = z
  .object({
    _id: z.string(),
    status: membershipStatus,
    requestMessage: z.string().nullable(),
    createdAt: z.string().openapi({ description: "When the request was made" }),
    decidedAt: z.string().nullable(),
    user: studentRef,
    group: groupRef,
  })
  .openapi("MembershipRequest");

export const joinResultDto = z.object({ message: z.string(), request: membershipRequestDto }).openapi("JoinResult");

export const leaveResultDto = z.object({ message: z.string(), groupSlug: z.string(), status: z.literal("left") }).openapi("LeaveResult");
export const withdrawResultDto = z.object({ message: z.string(), groupSlug: z.string() }).openapi("WithdrawResult");

export const groupStudentDto = z
  .object({
    _id: z.string().openapi({ description: "The membership's id" }),
    status: membershipStatus,
    requestedAt: z.string(),
    decidedAt: z.string().nullable().openapi({ description: "When staff last decided (approved, special, removed)" }),
    joinedAt: z.string().nullable().openapi({ description: "The day they first joined, kept across a switch of terms and a removal and return" }),
    quizTimeMultiplier: z.number().openapi({ description: "An accommodation: the member's time on every timed quiz of the group, as a multiple of its duration" }),
    user: studentRef,
  })
  .openapi("GroupStudent");

export const studentDto = z
  .object({
    ...studentRef.shape,
    role: z.enum(["admin", "instructor", "user"]),
    country: z.string().nullable(),
    createdAt: z.string(),
    memberships: z.array(
      z.object({ _id: z.string(), status: membershipStatus, requestedAt: z.string(), decidedAt: z.string().nullable(), group: groupRef }),
    ),
  })
  .openapi("Student");

export const uploadDto = z.object({ url: z.string().openapi({ example: "/media/courses/2b0Xq3d9R0mK1cYV8Zk3pA.webp" }) }).openapi("Upload");
