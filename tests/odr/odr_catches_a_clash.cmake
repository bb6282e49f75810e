# CTest odr_check_catches_a_clash: the flags the ODR check compiles and links attnbook with
# (ATTNBOOK_ODR_CHECK) refuse a program in which one struct has two different definitions.
#   cmake -DCXX=... -DCOMPILE_FLAGS="a|b" -DLINK_FLAGS="c|d" -DSOURCE_DIR=... -DWORK_DIR=...
#         -P odr_catches_a_clash.cmake
string(REPLACE "|" ";" COMPILE_FLAGS "${COMPILE_FLAGS}")
string(REPLACE "|" ";" LINK_FLAGS "${LINK_FLAGS}")
file(MAKE_DIRECTORY "${WORK_DIR}")
foreach(unit style_in_prose style_in_pdf)
  execute_process(COMMAND ${CXX} -std=c++20 ${COMPILE_FLAGS} -c "${SOURCE_DIR}/${unit}.cpp"
                          -o "${WORK_DIR}/${unit}.o"
                  RESULT_VARIABLE status ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${unit}.cpp does not compile: ${errors}")
  endif()
endforeach()
execute_process(COMMAND ${CXX} ${LINK_FLAGS} "${WORK_DIR}/style_in_prose.o"
                        "${WORK_DIR}/style_in_pdf.o" -o "${WORK_DIR}/clash"
                RESULT_VARIABLE status ERROR_VARIABLE errors)
if(status EQUAL 0)
  message(FATAL_ERROR "linked with ${LINK_FLAGS}, a program with two definitions of ProseStyle")
endif()
if(NOT errors MATCHES "One Definition Rule")
  message(FATAL_ERROR "the link failed, but not for the ODR: ${errors}")
endif()
message(STATUS "refused: two definitions of ProseStyle")
