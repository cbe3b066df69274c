// Telegram's payment form for a provider invoice: the buyer's name, phone, e-mail and shipping
// address, whichever the invoice asks for, filled in with sample values the person may change.
import { el } from "./dom.js";

const SAMPLE = {
  name: "Sam Sample",
  phoneNumber: "+49 30 1234567",
  email: "sam@example.com",
  country_code: "DE",
  city: "Berlin",
  street_line1: "Musterstraße 1",
  post_code: "10115",
};

function field(name, label, value, type = "text") {
  return el("label", {}, label, el("input", { name, type, value, required: true }));
}

function fieldsFor(asks) {
  const fields = [];
  if (asks.name) fields.push(field("name", "Name", SAMPLE.name));
  if (asks.phoneNumber) fields.push(field("phoneNumber", "Phone", SAMPLE.phoneNumber, "tel"));
  if (asks.email) fields.push(field("email", "E-mail", SAMPLE.email, "email"));
  if (asks.shippingAddress) {
    fields.push(
      field("country_code", "Country code", SAMPLE.country_code),
      field("city", "City", SAMPLE.city),
      field("street_line1", "Street", SAMPLE.street_line1),
      field("post_code", "Post code", SAMPLE.post_code),
    );
  }
  return fields;
}

function buyerOf(form, asks) {
  const value = (name) => form.elements[name]?.value.trim();
  return {
    ...(asks.name ? { name: value("name") } : {}),
    ...(asks.phoneNumber ? { phoneNumber: value("phoneNumber") } : {}),
    ...(asks.email ? { email: value("email") } : {}),
    ...(asks.shippingAddress
      ? {
          shippingAddress: {
            country_code: value("country_code").toUpperCase(),
            state: "",
            city: value("city"),
            street_line1: value("street_line1"),
            street_line2: "",
            post_code: value("post_code"),
          },
        }
      : {}),
  };
}

/** Resolves with the buyer's details, or null when the person cancels. No form: resolves at once. */
export function askBuyer(invoiceTitle, asks) {
  if (!asks || fieldsFor(asks).length === 0) return Promise.resolve(undefined);
  const dialog = document.getElementById("payment");
  const form = dialog.querySelector("form");
  dialog.querySelector("h2").textContent = `Payment: ${invoiceTitle}`;
  form.querySelector(".fields").replaceChildren(...fieldsFor(asks));
  return new Promise((resolve) => {
    form.onsubmit = (event) => {
      event.preventDefault();
      dialog.close();
      resolve(buyerOf(form, asks));
    };
    form.querySelector("[data-cancel]").onclick = () => {
      dialog.close();
      resolve(null);
    };
    dialog.showModal();
  });
}
