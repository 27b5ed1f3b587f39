/** A group with a code task, its staff and students, for the code exercise tests. */
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { addMember, call, createGroup, createUser, signIn, type SignedIn } from "./factories";
import { db } from "./helpers";

export const HIDDEN_CALL = "sum(40000, 2345)";
export const HIDDEN_EXPECTED = "42345";
export const REFERENCE = "function sum(a, b) { /* the reference */ return a + b; }";
export const exercise = (over: Record<string, unknown> = {}) => ({
  starterCode: "function sum(a, b) {\n  // your code\n}\n",
  tests: [
    { name: "adds small numbers", call: "sum(1, 2)", expected: "3", points: 2 },
    { name: "adds negatives", call: "sum(-4, 1)", expected: "-3", points: 3 },
    { name: "big numbers", call: HIDDEN_CALL, expected: HIDDEN_EXPECTED, points: 5, hidden: true },
  ],
  timeMs: 250,
  memoryMb: 8,
  referenceSolution: REFERENCE,
  published: true,
  ...over,
});

export async function world() {
  const teacher = await createUser({ role: "instructor" });
  const group = await createGroup({ instructorId: teacher.id });
  const lecture = { id: newId(), groupId: group.id, slug: `ex-${group.slug}`, title: "Functions", body: "", order: 1, published: true };
  await db().insert(s.lectures).values(lecture);
  const task = { id: newId(), lectureId: lecture.id, slug: `sum-${group.slug}`, title: "Write sum", body: "Return **a + b**.", maxScore: 50, allowLate: true, dueAt: new Date(Date.now() + 86_400_000) };
  await db().insert(s.tasks).values(task);
  const student = await createUser();
  await addMember(student, group);
  const stranger = await createUser();
  const otherTeacher = await createUser({ role: "instructor" });
  const admin = await createUser({ role: "admin" });
  const as = async (u: typeof student) => signIn(u);
  return { group, lecture, task, teacher: await as(teacher), student: await as(student), stranger: await as(stranger), otherTeacher: await as(otherTeacher), admin: await as(admin), studentUser: student };
}

export const send = async (who: SignedIn | null, method: string, path: string, body?: unknown) => {
  const res = await call(path, { method, body, token: who?.accessToken });
  const text = await res.text();
  return { status: res.status, text, body: (text ? JSON.parse(text) : null) as Record<string, any> };
};

