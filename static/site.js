// Every page: the language menu takes effect when chosen (without JavaScript its button does it).
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  var select = document.getElementById("language-select");
  if (select) {
    select.addEventListener("change", function () {
      select.form.submit();
    });
  }
});
