"""What the browser tests do while a page loads: wait for a condition, read the element with the focus."""

# What Chromium answers when a question reaches the page that is being replaced by the next one: the element (or the
# script's context) belonged to the document that was just left. Like a stale element, it means "not yet".
PAGE_BEING_REPLACED = ("does not belong to the document", "Execution context was destroyed", "Cannot find context")


def wait(driver, condition, timeout=15):
    """Wait until `condition(driver)` is true and return its value. An element read from the page that was
    just left (stale, or answered for by a document that is being replaced) counts as not yet: the condition is
    tried again on the page that replaced it."""
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    def on_the_page_that_stays(d):
        try:
            return condition(d)
        except WebDriverException as error:  # a stale element falls through to the ignored exceptions below
            if any(words in (error.msg or "") for words in PAGE_BEING_REPLACED):
                return False
            raise

    # asked every 0.1 s (Selenium's default is 0.5 s: a quarter of a second lost on average at each of the suite's
    # waits, for one WebDriver round trip saved)
    return WebDriverWait(
        driver, timeout, poll_frequency=0.1, ignored_exceptions=(StaleElementReferenceException,)
    ).until(on_the_page_that_stays)


def focused(driver, attribute):
    """The attribute (id, name, class) of the element that has the keyboard focus."""
    return driver.switch_to.active_element.get_attribute(attribute) or ""
