/** Who is acting. `userId` is the JWT subject; `role` comes from an optional role claim. */
export interface Caller {
  userId: string;
  role?: string | undefined;
  /** The verified token claims, for tools such as `user.current`. */
  claims?: Readonly<Record<string, unknown>> | undefined;
}
