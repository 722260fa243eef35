/** The sign-up form's fields as a person fills them in (F-1 student, no phone, terms accepted). */
export function signupFields(email: string, password: string, fullName = "Test Client"): Record<string, string> {
  return {
    intent: "signup",
    fullName,
    email,
    phone: "",
    visaStatus: "F-1",
    password,
    confirmPassword: password,
    acceptTerms: "on",
  };
}
